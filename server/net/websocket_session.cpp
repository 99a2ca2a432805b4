#include "net/websocket_session.hpp"

#include <spdlog/spdlog.h>

#include "common/metrics.hpp"
#include "net/open_connections.hpp"
#include "net/websocket_frame.hpp"

namespace emporium::server {

namespace perr = protocol::errc;
using Json = nlohmann::json;

WebSocketSession::WebSocketSession(tcp::socket&& socket, std::shared_ptr<const ServerContext> context,
                                   std::unique_ptr<AddressLimits::Slot> slot, std::optional<SignedInAs> account)
    : ws_(std::move(socket)),
      context_(std::move(context)),
      slot_(std::move(slot)),
      member_(*this, ws_.get_executor(), *context_->tables, slot_->address(), std::move(account)),
      hello_timer_(ws_.get_executor()),
      tokens_(limits_.burst),
      last_refill_(std::chrono::steady_clock::now()),
      refusal_window_start_(last_refill_) {}

// Not the open connections: at shutdown a session may outlive them (on_closed has already left them anyway).
WebSocketSession::~WebSocketSession() { context_->metrics->connection_closed(); }

void WebSocketSession::run(http::request<http::string_body> upgrade) {
  context_->metrics->connection_opened();
  // Small frames must leave at once: Nagle plus delayed ACKs would add ~40 ms to every event.
  beast::error_code ignored;
  beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true), ignored);
  // A fixed kernel send buffer (64 KiB, doubled by Linux) bounds what a stalled reader can pin;
  // autotuning would allow 4 MiB per connection. Game frames are small, so this costs no speed;
  // past it, frames wait in our capped queue, and a reader that far behind is dropped.
  beast::get_lowest_layer(ws_).socket().set_option(net::socket_base::send_buffer_size(64 * 1024), ignored);
  ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
  ws_.set_option(websocket::stream_base::decorator(
      [](websocket::response_type& res) { res.set(http::field::server, "emporium"); }));
  ws_.read_message_max(limits_.hard_frame_bytes);
  ws_.async_accept(upgrade, beast::bind_front_handler(&WebSocketSession::on_accept, shared_from_this()));
}

void WebSocketSession::on_accept(beast::error_code ec) {
  if (ec) return on_closed();
  ws_.next_layer().divert_writes_to(this);
  // do_write writes at once what the socket takes: it must not block for the rest (where this fails, every write
  // is asynchronous).
  beast::error_code ignored;
  beast::get_lowest_layer(ws_).socket().non_blocking(true, ignored);
  context_->connections->add(shared_from_this());
  // Every client says hello at once (the web client does on welcome); a connection that does not only holds a
  // descriptor.
  hello_timer_.expires_after(limits_.hello_within);
  hello_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
    if (ec || self->member_.greeted()) return;
    self->context_->metrics->message_refused("no_hello");
    self->close_after_flush({websocket::close_code::policy_error,
                             "no hello within " + std::to_string(self->limits_.hello_within.count()) + " s"});
  });
  // The member shares this session's lifetime: rooms that hold it keep the connection alive.
  member_.start(std::shared_ptr<Member>(shared_from_this(), &member_));
  do_read();
}

void WebSocketSession::do_read() {
  ws_.async_read(buffer_, beast::bind_front_handler(&WebSocketSession::on_read, shared_from_this()));
}

void WebSocketSession::on_read(beast::error_code ec, std::size_t bytes) {
  if (ec) {
    if (ec != websocket::error::closed && ec != net::error::operation_aborted && ec != beast::error::timeout &&
        ec != net::error::eof && ec != net::error::connection_reset) {
      spdlog::debug("websocket read: {}", ec.message());
    }
    return on_closed();
  }
  const auto received = std::chrono::steady_clock::now();
  const std::string frame = beast::buffers_to_string(buffer_.data());
  buffer_.consume(buffer_.size());

  if (!within_rate()) {
    // The refused request's id, when it can be read: only the id is looked at, never the message.
    const Json re = ws_.got_text() && bytes <= limits_.max_frame_bytes ? protocol::request_id(frame) : Json(nullptr);
    if (refusals_in_window_ >= limits_.refusals_before_disconnect) {
      context_->metrics->message_refused("flood_disconnect");
      reply(protocol::render_error(re, perr::rate_limited, "too many messages: disconnecting"));
      close_after_flush({websocket::close_code::policy_error, "message flood"});
      return;  // no more reading
    }
    refuse(re, perr::rate_limited, "too many messages: at most " +
                                       std::to_string(static_cast<int>(limits_.messages_per_second)) +
                                       " a second; this one was ignored");
    return do_read();
  }
  if (!ws_.got_text()) {
    refuse(nullptr, perr::bad_message, "send JSON in text frames");
    return do_read();
  }
  if (bytes > limits_.max_frame_bytes) {
    refuse(nullptr, perr::frame_too_large,
           "a frame may hold at most " + std::to_string(limits_.max_frame_bytes) + " bytes");
    return do_read();
  }
  const bool read_on = member_.receive(frame, received);
  if (!greeted_ && member_.greeted()) {
    greeted_ = true;
    hello_timer_.cancel();
  }
  if (read_on) do_read();  // else the member reads on once its request can go on (Connection::read_on)
}

bool WebSocketSession::within_rate() {
  const auto now = std::chrono::steady_clock::now();
  tokens_ = std::min(limits_.burst,
                     tokens_ + std::chrono::duration<double>(now - last_refill_).count() * limits_.messages_per_second);
  last_refill_ = now;
  if (now - refusal_window_start_ > std::chrono::seconds(10)) {
    refusal_window_start_ = now;
    refusals_in_window_ = 0;
  }
  if (tokens_ >= 1) {
    tokens_ -= 1;
    return true;
  }
  ++refusals_in_window_;
  return false;
}

void WebSocketSession::refuse(const Json& re, const std::string& code, const std::string& message) {
  context_->metrics->message_refused(code);
  reply(protocol::render_error(re, code, message));
}

void WebSocketSession::reply(std::string frame) { enqueue(std::make_shared<const std::string>(std::move(frame))); }

void WebSocketSession::send(std::shared_ptr<const std::string> frame) {
  net::post(ws_.get_executor(), [self = shared_from_this(), frame = std::move(frame)] { self->enqueue(frame); });
}

void WebSocketSession::send(std::string first, std::shared_ptr<const std::string> second) {
  net::post(ws_.get_executor(), [self = shared_from_this(), first = std::make_shared<const std::string>(std::move(first)),
                                 second = std::move(second)] {
    self->enqueue(first, false);
    self->enqueue(second);
  });
}

void WebSocketSession::enqueue(std::shared_ptr<const std::string> frame, bool write) {
  if (closed_ || pending_close_) return;
  Outgoing out;
  out.header_size = websocket_text_header(frame->size(), out.header);
  out.bytes = std::move(frame);
  if (queue_up(std::move(out)) && write && writing_ == 0) do_write();
}

// Beast's pongs count against the caps too: reported written at once, they no longer hold Beast's reading back,
// so a client that sends pings and reads nothing would otherwise grow the queue without end.
void WebSocketSession::put_raw(std::string bytes) {
  if (closed_) return;  // nothing more is written: the connection is gone or dropped
  Outgoing out;
  out.bytes = std::make_shared<const std::string>(std::move(bytes));
  if (queue_up(std::move(out)) && writing_ == 0) do_write();
}

bool WebSocketSession::queue_up(Outgoing out) {
  queued_bytes_ += out.bytes->size();
  queue_.push_back(std::move(out));
  if (queue_.size() > limits_.max_queued_frames || queued_bytes_ > limits_.max_queued_bytes) {
    drop_connection("slow reader: outbound queue full");
    return false;
  }
  return true;
}

void WebSocketSession::when_flushed(std::function<void()> then) {
  if (flushed() || closed_) return then();
  on_flushed_.push_back(std::move(then));
}

// Everything queued, in one gathered write (one system call while the socket takes it all). Written at once when
// the socket's buffer has room, the usual case: no asynchronous operation, no completion handler to post and run
// through the strand. Only what the socket does not take now waits for it (async_write).
void WebSocketSession::do_write() {
  static constexpr std::size_t kMostFrames = 64;
  auto& socket = beast::get_lowest_layer(ws_).socket();
  for (;;) {
    write_buffers_.clear();
    writing_ = std::min(queue_.size(), kMostFrames);
    std::size_t total = 0;
    for (std::size_t i = 0; i < writing_; ++i) {
      const auto& out = queue_[i];
      if (out.header_size) write_buffers_.emplace_back(out.header.data(), out.header_size);
      write_buffers_.emplace_back(out.bytes->data(), out.bytes->size());
      total += out.header_size + out.bytes->size();
    }
    beast::error_code ec;
    const std::size_t written = socket.non_blocking() ? socket.write_some(write_buffers_, ec) : 0;
    if (ec == net::error::would_block || ec == net::error::try_again) ec = {};
    if (ec) return on_write(ec, 0);
    if (written < total) {
      skip_written(written);
      net::async_write(socket, write_buffers_,
                       beast::bind_front_handler(&WebSocketSession::on_write, shared_from_this()));
      return;
    }
    written_out();
    if (queue_.empty()) return all_written();
  }
}

void WebSocketSession::skip_written(std::size_t written) {
  auto first = write_buffers_.begin();
  for (; written > 0 && written >= first->size(); ++first) written -= first->size();
  write_buffers_.erase(write_buffers_.begin(), first);
  if (written > 0) write_buffers_.front() += written;
}

void WebSocketSession::written_out() {
  for (; writing_ > 0; --writing_) {
    queued_bytes_ -= queue_.front().bytes->size();
    queue_.pop_front();
  }
}

void WebSocketSession::on_write(beast::error_code ec, std::size_t) {
  if (ec) {
    writing_ = 0;
    on_closed();
  } else {
    written_out();
    if (!queue_.empty()) return do_write();
  }
  all_written();
}

void WebSocketSession::all_written() {
  for (auto& then : std::exchange(on_flushed_, {})) then();
  if (pending_close_ && !close_started_ && !closed_) do_close();
}

// The close frame goes out after the frames queued before it (Beast's close joins the queue: put_raw).
void WebSocketSession::close_after_flush(websocket::close_reason reason) {
  if (pending_close_ || closed_) return;
  pending_close_ = std::move(reason);
  if (queue_.empty()) do_close();
}

void WebSocketSession::do_close() {
  close_started_ = true;
  ws_.async_close(*pending_close_, [self = shared_from_this()](beast::error_code) { self->on_closed(); });
}

void WebSocketSession::drop_connection(const char* why) {
  if (closed_) return;  // counted once
  spdlog::info("closing a connection: {}", why);
  context_->metrics->message_refused("slow_reader_disconnect");
  beast::error_code ignored;
  beast::get_lowest_layer(ws_).socket().close(ignored);
  on_closed();
}

void WebSocketSession::close(Close why) {
  net::post(ws_.get_executor(), [self = shared_from_this(), why] {
    switch (why) {
      case Close::going_away:
        return self->close_after_flush({websocket::close_code::going_away, "server shutting down"});
      case Close::table_moved:
        return self->close_after_flush({websocket::close_code::service_restart, "table moved: connect again"});
      case Close::signed_out:
        return self->close_after_flush({websocket::close_code::policy_error, "signed out: connect again"});
    }
  });
}

void WebSocketSession::on_closed() {
  if (closed_) return;
  closed_ = true;  // queued frames stay until destruction: a write may still be using one
  hello_timer_.cancel();
  context_->connections->remove(this);
  member_.closed();
}

}  // namespace emporium::server
