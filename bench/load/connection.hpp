#pragma once
// One WebSocket connection of the generator: the protocol's requests and replies ("id" / "re"), and a pace
// under the server's message limit. A client of the wire protocol only (protocol/README.md).
#include "run_state.hpp"

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/websocket.hpp>

#include <deque>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace emporium::load {

using tcp = net::ip::tcp;

// A request answered with an `error` frame, or whose connection closed first.
struct request_failed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class connection {
 public:
  // Every frame that is not the error reply to a request() (the table's own logic reads them).
  using frame_handler = std::function<void(Json& frame)>;
  // When a queued frame actually leaves (after the pace held it back, perhaps).
  using sent_handler = std::function<void(clock::time_point)>;

  connection(net::any_io_executor executor, run_state& run, frame_handler on_frame);
  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;

  // Connects, upgrades to /ws and waits for `welcome`.
  net::awaitable<void> open(const tcp::endpoint& server);
  // Sends `message` with a fresh id; the frame that answers it ("re"), or request_failed.
  net::awaitable<Json> request(Json message);
  // Sends when the pace allows, in order.
  void send(std::string text, sent_handler on_sent = {});
  // Drops the connection at once (no closing handshake).
  void close();

 private:
  // A request waiting for its answer: `signal` is cancelled when it is in.
  struct reply {
    explicit reply(const net::any_io_executor& executor) : signal(executor, clock::time_point::max()) {}
    net::steady_timer signal;
    bool in = false;
    Json frame;
    std::string error;
  };
  struct outgoing {
    std::string text;
    sent_handler on_sent;
  };

  static net::awaitable<Json> wait_for(std::shared_ptr<reply> r, std::string what);
  void read();
  void handle(Json& frame);
  void fail_replies(const std::string& why);
  void closed(const boost::system::error_code& error);
  void flush();

  run_state& run_;
  frame_handler on_frame_;
  boost::beast::websocket::stream<tcp::socket> ws_;
  boost::beast::flat_buffer in_;
  bool open_ = false;
  std::shared_ptr<reply> welcome_;
  std::unordered_map<std::int64_t, std::shared_ptr<reply>> replies_;
  // The pace: a token bucket of msg_burst, refilled at msg_rate a second.
  std::deque<outgoing> out_;
  bool writing_ = false;
  bool held_ = false;  // the pace's timer runs
  double tokens_;
  clock::time_point refilled_;
  net::steady_timer pace_;
};

}  // namespace emporium::load
