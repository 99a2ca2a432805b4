#pragma once
// The TCP stream under the server's WebSockets and HTTP sessions, with a teardown that reads and discards what the
// client is still sending before it closes the socket. Beast 1.74's own teardown stops draining after the first
// read (it tests a stale byte count), and closing a socket with unread data sends a reset, which makes the client's
// TCP throw away what it was owed: a frame over the 1 MiB limit was seen as 1006 instead of 1009, and a body over
// the HTTP limit got a broken pipe instead of its 413.
#include <array>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "net/beast.hpp"
#include "common/net.hpp"

namespace emporium::server {

// Where the session writes its frames itself (WebSocketSession: several frames in one system call), Beast's own
// writes (pong, keep-alive ping, close) must join the same queue, or the two could interleave on the socket.
class WriteQueue {
 public:
  virtual ~WriteQueue() = default;
  virtual void put_raw(std::string bytes) = 0;                      // bytes to write after what is queued
  virtual bool flushed() const = 0;                                 // nothing queued nor being written
  // `then` once nothing is queued, or once nothing more will be written (the connection is gone); at once if so.
  virtual void when_flushed(std::function<void()> then) = 0;
};

class LingeringStream : public beast::tcp_stream {
 public:
  using beast::tcp_stream::tcp_stream;

  // From then on, what Beast writes is queued there (and reported written) instead of written here.
  void divert_writes_to(WriteQueue* queue) { queue_ = queue; }
  WriteQueue* diverted_to() const { return queue_; }

  // Hides tcp_stream's: Beast writes through this (its handshake answer before any diversion).
  template <class ConstBufferSequence, class WriteHandler>
  void async_write_some(const ConstBufferSequence& buffers, WriteHandler&& handler) {
    if (!queue_) {
      beast::tcp_stream::async_write_some(buffers, std::forward<WriteHandler>(handler));
      return;
    }
    std::string bytes(net::buffer_size(buffers), '\0');
    net::buffer_copy(net::buffer(bytes), buffers);
    const auto size = bytes.size();
    queue_->put_raw(std::move(bytes));
    net::post(get_executor(), beast::bind_front_handler(std::forward<WriteHandler>(handler), beast::error_code{}, size));
  }

 private:
  WriteQueue* queue_ = nullptr;
};

namespace detail {
// Sends FIN (after the close frame Beast has written), reads until the client's FIN, an error, kLinger or kMaxDrain
// bytes, then closes. Completes without error: the close frame, which is what matters, has been sent.
struct LingeringCloseOp {
  static constexpr auto kLinger = std::chrono::seconds(5);
  static constexpr std::size_t kMaxDrain = 16 * 1024 * 1024;

  LingeringStream& stream;
  std::unique_ptr<std::array<char, 16 * 1024>> buffer = std::make_unique<std::array<char, 16 * 1024>>();
  std::size_t drained = 0;
  bool started = false;
  bool waited = false;  // for the queue: once is enough (it answers when flushed, or when it never will be)

  template <class Self>
  void operator()(Self& self, beast::error_code ec = {}, std::size_t bytes = 0) {
    if (!started) {
      // The close frame Beast wrote may still be queued (WriteQueue): the send side is shut once it is out.
      // Asked once only: a queue whose connection is gone answers at once and stays unflushed, and asking it again
      // from its answer would never end (each answer one more frame on the stack).
      if (auto* queue = stream.diverted_to(); queue && !queue->flushed() && !waited) {
        waited = true;
        auto waiting = std::make_shared<Self>(std::move(self));
        queue->when_flushed([waiting] { (*waiting)(); });
        return;
      }
      started = true;
      stream.socket().shutdown(tcp::socket::shutdown_send, ec);
      stream.expires_after(kLinger);
    } else {
      drained += bytes;
    }
    if (ec || drained > kMaxDrain) {
      beast::error_code ignored;
      stream.socket().close(ignored);
      return self.complete(beast::error_code{});
    }
    stream.async_read_some(net::buffer(*buffer), std::move(self));
  }
};
}  // namespace detail

// Found by Beast through argument-dependent lookup; preferred to its own for basic_stream (an exact match).
template <class TeardownHandler>
auto async_teardown(beast::role_type, LingeringStream& stream, TeardownHandler&& handler) {
  return net::async_compose<TeardownHandler, void(beast::error_code)>(detail::LingeringCloseOp{stream},
                                                                        handler, stream);
}

inline void teardown(beast::role_type, LingeringStream& stream, beast::error_code& ec) {
  stream.socket().shutdown(tcp::socket::shutdown_both, ec);
  stream.socket().close(ec);
}

}  // namespace emporium::server
