#pragma once
#include <chrono>
#include <memory>

#include "beast.hpp"
#include "net.hpp"
#include "server_context.hpp"

namespace emporium::server {

// Accepts connections and hands each to an http_session on its own strand.
class listener : public std::enable_shared_from_this<listener> {
 public:
  listener(net::io_context& ioc, tcp::endpoint endpoint, std::shared_ptr<const server_context> context);
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
  std::shared_ptr<const server_context> context_;
};

}  // namespace emporium::server
