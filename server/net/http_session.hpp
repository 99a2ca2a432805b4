#pragma once
#include <memory>
#include <optional>

#include "analyses/analyses.hpp"
#include "common/address_limits.hpp"
#include "common/net.hpp"
#include "net/beast.hpp"
#include "net/lingering_stream.hpp"
#include "net/server_context.hpp"
#include "records/game_records.hpp"
#include "tables/member.hpp"

namespace emporium::server {

// One HTTP connection: serves web-client/, finished games' records and /healthz, one request at a time with
// keep-alive.
class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  // `slot`: the connection counted for its address; null for a trusted proxy's (counted on the upgrade).
  HttpSession(tcp::socket&& socket, std::shared_ptr<const ServerContext> context,
               std::unique_ptr<AddressLimits::Slot> slot);
  void run();

 private:
  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  void on_write(bool keep_alive, beast::error_code ec, std::size_t bytes);
  void do_close();
  void upgrade();
  // The upgrade, once its session cookie is read: counted (open_counted: for the account or the address, 429 over
  // the cap), then handed to a WebSocket session.
  void open_counted(std::optional<SignedInAs> account);
  void open_websocket(std::optional<SignedInAs> account);
  void refuse_connection(const char* why);  // 429, and the connection closed
  void serve_record(GameRecords::Request r);  // GET /tables/<id>/record.json and replay.json
  void serve_analysis(Analyses::Request r);  // POST /tables/<id>/analysis, GET /tables/<id>/analysis.json
  bool from_own_page() const;  // a POST's Origin is this site's own
  void serve_account(std::string_view path);  // the account requests, /api/... (docs/accounts.md)
  // The client's address: the peer's, or the one a trusted proxy names (the last X-Forwarded-For hop). Empty when
  // the socket is gone.
  std::string client_address();

  template <class Response>
  void send(Response&& response);

  LingeringStream stream_;  // its close reads what the client still sends first (do_close)
  beast::flat_buffer buffer_;
  std::shared_ptr<const ServerContext> context_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::shared_ptr<void> response_;  // keeps the response alive during the write
  std::unique_ptr<AddressLimits::Slot> slot_;
};

}  // namespace emporium::server
