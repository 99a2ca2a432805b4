#pragma once
#include <chrono>
#include <memory>

#include "common/net.hpp"
#include "net/beast.hpp"
#include "net/server_context.hpp"

namespace emporium::server {

// Accepts connections and hands each to an HttpSession on its own strand.
class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(net::io_context& ioc, tcp::endpoint endpoint, std::shared_ptr<const ServerContext> context);
  void run();
  void stop();
  tcp::endpoint local_endpoint() const { return acceptor_.local_endpoint(); }

 private:
  void do_accept();
  void on_accept(beast::error_code ec, tcp::socket socket);
  void serve(tcp::socket socket);  // counts the connection for its address, or closes it at the cap

  net::io_context& ioc_;
  tcp::acceptor acceptor_;
  net::steady_timer retry_;  // the pause after a failed accept (out of descriptors, say)
  std::chrono::steady_clock::time_point last_warning_{};
  long failed_since_warning_ = 0;
  std::shared_ptr<const ServerContext> context_;
};

}  // namespace emporium::server
