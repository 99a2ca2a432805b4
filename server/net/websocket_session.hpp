#pragma once
// One WebSocket connection, the transport only (as in Beast's examples): reads client frames, enforces the
// per-connection frame size and rate limits, and writes server frames from a capped queue. What the frames say is
// its Member's business (tables/member.hpp): the session hands it each text frame, and implements the Connection it
// answers through. Runs on its own strand; send() and close() are safe to call from any thread.
#include <array>
#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/address_limits.hpp"
#include "common/net.hpp"
#include "net/beast.hpp"
#include "net/lingering_stream.hpp"
#include "net/server_context.hpp"
#include "tables/connection.hpp"
#include "tables/member.hpp"

namespace emporium::server {

struct SessionLimits {
  std::size_t max_frame_bytes = 16 * 1024;         // larger frames are refused with frame_too_large
  std::size_t hard_frame_bytes = 1024 * 1024;      // larger ones close the connection (1009)
  std::size_t max_queued_frames = 1024;            // a reader this far behind is disconnected
  std::size_t max_queued_bytes = 8 * 1024 * 1024;
  double messages_per_second = 20;                 // token bucket refill
  double burst = 60;                               // token bucket size
  int refusals_before_disconnect = 100;            // rate-limited messages within 10 s
  std::chrono::seconds hello_within{10};           // a connection that has not said hello by then is closed
};

// Frames are written by the session itself, framed here, as many in one system call as are queued (the mover's
// ack and events, for one): Beast writes one message per call. Beast still reads, answers the handshake, and
// writes its control frames, which join the same queue (LingeringStream::divert_writes_to).
class WebSocketSession : public std::enable_shared_from_this<WebSocketSession>, public Connection, private WriteQueue {
 public:
  // `slot`: this connection, counted for the client's address (whose table creations are counted too).
  // `account`: the account the upgrade's session cookie signed in (none for a guest).
  WebSocketSession(tcp::socket&& socket, std::shared_ptr<const ServerContext> context,
                   std::unique_ptr<AddressLimits::Slot> slot, std::optional<SignedInAs> account = std::nullopt);
  ~WebSocketSession();

  void run(http::request<http::string_body> upgrade);

  // Connection
  void send(std::shared_ptr<const std::string> frame) override;
  void send(std::string first, std::shared_ptr<const std::string> second) override;
  void close(Close why) override;
  // The account the connection was signed in with at its upgrade, if any (never changes: any thread).
  const std::optional<SignedInAs>& account() const { return member_.account(); }
  void reply(std::string frame) override;
  void read_on() override { do_read(); }
  bool closing() const override { return closed_ || pending_close_.has_value(); }

 private:
  void on_accept(beast::error_code ec);
  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  void refuse(const nlohmann::json& re, const std::string& code, const std::string& message);
  bool within_rate();
  // On the strand: queue a frame for writing.
  // `write`: start writing if nothing is being written (false: the caller queues more first, then starts).
  void enqueue(std::shared_ptr<const std::string> frame, bool write = true);
  // WriteQueue, for Beast's own frames (on the strand).
  void put_raw(std::string bytes) override;
  bool flushed() const override { return queue_.empty(); }
  void when_flushed(std::function<void()> then) override;
  void do_write();
  void skip_written(std::size_t written);  // drops what was written from write_buffers_' front
  void written_out();                      // the `writing_` frames are out: off the queue
  void on_write(beast::error_code ec, std::size_t bytes);
  void all_written();                      // nothing more to write (or the connection is gone): what waited for that
  void drop_connection(const char* why);
  void close_after_flush(websocket::close_reason reason);
  void do_close();
  void on_closed();

  websocket::stream<LingeringStream> ws_;
  beast::flat_buffer buffer_;
  std::shared_ptr<const ServerContext> context_;  // shared with the listener: not copied per connection
  SessionLimits limits_;
  std::unique_ptr<AddressLimits::Slot> slot_;
  Member member_;  // what the client's frames say, and the tables it is at
  net::steady_timer hello_timer_;
  bool greeted_ = false;  // the member said the client introduced itself: the hello timer is off
  // What waits to be written, in order: our text frames (a header of their own, before the payload) and Beast's
  // bytes (already framed). The first `writing_` are being written.
  struct Outgoing {
    std::array<unsigned char, 10> header{};
    std::size_t header_size = 0;
    std::shared_ptr<const std::string> bytes;
  };
  // Appends to the queue; past the caps (max_queued_frames, max_queued_bytes) drops the connection: false.
  bool queue_up(Outgoing out);
  std::deque<Outgoing> queue_;
  std::size_t writing_ = 0;
  std::vector<net::const_buffer> write_buffers_;
  std::vector<std::function<void()>> on_flushed_;
  std::size_t queued_bytes_ = 0;  // what the queue holds, headers aside
  bool closed_ = false;
  std::optional<websocket::close_reason> pending_close_;
  bool close_started_ = false;  // async_close called
  double tokens_;
  std::chrono::steady_clock::time_point last_refill_;
  std::chrono::steady_clock::time_point refusal_window_start_;
  int refusals_in_window_ = 0;
};

}  // namespace emporium::server
