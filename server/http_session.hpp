#pragma once
#include <memory>
#include <optional>

#include "address_limits.hpp"
#include "beast.hpp"
#include "game_records.hpp"
#include "net.hpp"
#include "server_context.hpp"

namespace emporium::server {

// One HTTP connection: serves web-client/, finished games' records and /healthz, one request at a time with
// keep-alive.
class http_session : public std::enable_shared_from_this<http_session> {
 public:
  // `slot`: the connection counted for its address; null for a trusted proxy's (counted on the upgrade).
  http_session(tcp::socket&& socket, std::shared_ptr<const server_context> context,
               std::unique_ptr<address_limits::connection> slot);
  void run();

 private:
  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  void on_write(bool keep_alive, beast::error_code ec, std::size_t bytes);
  void do_close();
  void upgrade();
  void serve_record(game_records::request r);  // GET /tables/<id>/record.json and replay.json

  template <class Response>
  void send(Response&& response);

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::shared_ptr<const server_context> context_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::shared_ptr<void> response_;  // keeps the response alive during the write
  std::unique_ptr<address_limits::connection> slot_;
};

}  // namespace emporium::server
