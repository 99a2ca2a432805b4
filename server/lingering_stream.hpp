#pragma once
// The TCP stream under the server's WebSockets, with a teardown that reads and discards what the client is still
// sending before it closes the socket. Beast 1.74's own teardown stops draining after the first read (it tests a
// stale byte count), and closing a socket with unread data sends a reset, which makes the client's TCP throw away
// the close frame it was owed: a frame over the 1 MiB limit was seen as 1006 instead of 1009.
#include <array>
#include <chrono>
#include <memory>

#include "beast.hpp"
#include "net.hpp"

namespace emporium::server {

class lingering_stream : public beast::tcp_stream {
 public:
  using beast::tcp_stream::tcp_stream;
};

namespace detail {
// Sends FIN (after the close frame Beast has written), reads until the client's FIN, an error, kLinger or kMaxDrain
// bytes, then closes. Completes without error: the close frame, which is what matters, has been sent.
struct lingering_close_op {
  static constexpr auto kLinger = std::chrono::seconds(5);
  static constexpr std::size_t kMaxDrain = 16 * 1024 * 1024;

  lingering_stream& stream;
  std::unique_ptr<std::array<char, 16 * 1024>> buffer = std::make_unique<std::array<char, 16 * 1024>>();
  std::size_t drained = 0;
  bool started = false;

  template <class Self>
  void operator()(Self& self, beast::error_code ec = {}, std::size_t bytes = 0) {
    if (!started) {
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
auto async_teardown(beast::role_type, lingering_stream& stream, TeardownHandler&& handler) {
  return net::async_compose<TeardownHandler, void(beast::error_code)>(detail::lingering_close_op{stream},
                                                                        handler, stream);
}

inline void teardown(beast::role_type, lingering_stream& stream, beast::error_code& ec) {
  stream.socket().shutdown(tcp::socket::shutdown_both, ec);
  stream.socket().close(ec);
}

}  // namespace emporium::server
