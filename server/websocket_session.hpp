#pragma once
// One WebSocket connection: reads client frames, enforces the per-connection limits, parses them
// with protocol/, routes them to the lobby or to a room, and writes server frames from a capped
// queue. Runs on its own strand; public members are safe to call from any thread.
#include <array>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <emporium/protocol/protocol.hpp>

#include "address_limits.hpp"
#include "beast.hpp"
#include "lingering_stream.hpp"
#include "lobby.hpp"
#include "net.hpp"
#include "server_context.hpp"

namespace emporium::server {

class room;

struct session_limits {
  std::size_t max_frame_bytes = 16 * 1024;         // larger frames are refused with frame_too_large
  std::size_t hard_frame_bytes = 1024 * 1024;      // larger ones close the connection (1009)
  std::size_t max_queued_frames = 1024;            // a reader this far behind is disconnected
  std::size_t max_queued_bytes = 8 * 1024 * 1024;
  double messages_per_second = 20;                 // token bucket refill
  double burst = 60;                               // token bucket size
  int refusals_before_disconnect = 100;            // rate-limited messages within 10 s
  std::size_t max_tables = 16;                     // tables seated at or watched at once
  int max_tables_created = 32;                     // per connection
  std::chrono::seconds hello_within{10};           // a connection that has not said hello by then is closed
};

// Frames are written by the session itself, framed here, as many in one system call as are queued (the mover's
// ack and events, for one): Beast writes one message per call. Beast still reads, answers the handshake, and
// writes its control frames, which join the same queue (lingering_stream::divert_writes_to).
class websocket_session : public std::enable_shared_from_this<websocket_session>, private write_queue {
 public:
  // `slot`: this connection, counted for the client's address (whose table creations are counted too).
  websocket_session(tcp::socket&& socket, std::shared_ptr<const server_context> context,
                    std::unique_ptr<address_limits::connection> slot);
  ~websocket_session();

  void run(http::request<http::string_body> upgrade);

  void send(std::string frame);
  void send(std::shared_ptr<const std::string> frame);
  // Frames for one client at the same moment (a mover's ack and events): queued together, so that they leave in
  // one write.
  void send(std::string first, std::shared_ptr<const std::string> second);
  void joined(std::shared_ptr<room> table);  // a room took us in (seat or spectator)
  void left(std::string table_id);           // a room let us go
  void close_going_away();                   // server shutdown
  // A table of this connection moved to another node (room::move_away): the client connects again, through the
  // proxy, and finds it there.
  void close_table_moved();

 private:
  void on_accept(beast::error_code ec);
  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  void handle(protocol::Request request, std::chrono::steady_clock::time_point received);
  void refuse(const nlohmann::json& re, const std::string& code, const std::string& message);
  // Several nodes: a request's table may have to be taken over from another node first (lobby::find). Then
  // `use` runs once it is here, and nothing more is read from the client meanwhile, so requests stay in order.
  void with_table(lobby::lookup found, std::function<void(const std::shared_ptr<room>&)> use);
  std::function<void(std::shared_ptr<room>)> later();  // the callback lobby::find calls, posted back to this strand
  bool within_rate();
  void said_hello();
  bool room_for_another_table(const nlohmann::json& re);  // refuses with too_many_tables when full
  // Sends `request` (which may add `table` to this connection) holding a table slot until the room answers.
  template <class Request>
  void in_table_slot(const std::shared_ptr<room>& table, Request&& request);
  // A request that may add a table, at the cap while earlier ones are unanswered: it waits for their answers.
  bool waits_for_a_slot(const protocol::Request& request) const;
  void slot_released();
  // What frees a reserved slot, to be run once the room that answers the request has (after its answer).
  std::function<void()> slot_releaser();
  std::shared_ptr<room> table_for(const std::string& id, const nlohmann::json& re);
  // On the strand: queue a frame for writing.
  // `write`: start writing if nothing is being written (false: the caller queues more first, then starts).
  void enqueue(std::shared_ptr<const std::string> frame, bool write = true);
  void enqueue_text(std::string frame);
  // write_queue, for Beast's own frames (on the strand).
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

  websocket::stream<lingering_stream> ws_;
  beast::flat_buffer buffer_;
  std::shared_ptr<const server_context> context_;  // shared with the listener: not copied per connection
  session_limits limits_;
  protocol::Limits protocol_limits_;  // what frames are parsed with (the server's shortest clock turn)
  std::unique_ptr<address_limits::connection> slot_;
  net::steady_timer hello_timer_;
  bool said_hello_ = false;  // hello or set_name
  std::string name_;
  std::map<std::string, std::shared_ptr<room>> tables_;
  std::function<void(const std::shared_ptr<room>&)> awaiting_table_;  // with_table: what waits for its table
  std::size_t reserved_slots_ = 0;  // table requests accepted and not yet answered by their room
  std::size_t slots_given_up_ = 0;  // of those, answered by a joined() before the room confirmed
  // The request that waits for a slot (reading is paused meanwhile), with when it was received.
  std::optional<std::pair<protocol::Request, std::chrono::steady_clock::time_point>> deferred_;
  int tables_created_ = 0;
  // What waits to be written, in order: our text frames (a header of their own, before the payload) and Beast's
  // bytes (already framed). The first `writing_` are being written.
  struct outgoing {
    std::array<unsigned char, 10> header{};
    std::size_t header_size = 0;
    std::shared_ptr<const std::string> bytes;
  };
  // Appends to the queue; past the caps (max_queued_frames, max_queued_bytes) drops the connection: false.
  bool queue_up(outgoing out);
  std::deque<outgoing> queue_;
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
