#include "net/listener.hpp"

#include <spdlog/spdlog.h>

#include "common/address_limits.hpp"
#include "common/metrics.hpp"
#include "net/http_session.hpp"

namespace emporium::server {

Listener::Listener(net::io_context& ioc, tcp::endpoint endpoint, std::shared_ptr<const ServerContext> context)
    : ioc_(ioc), acceptor_(net::make_strand(ioc)), retry_(acceptor_.get_executor()), context_(std::move(context)) {
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(net::socket_base::reuse_address(true));
  acceptor_.bind(endpoint);
  acceptor_.listen(net::socket_base::max_listen_connections);
}

void Listener::run() { do_accept(); }

void Listener::stop() {
  net::post(acceptor_.get_executor(), [self = shared_from_this()] {
    beast::error_code ignored;
    self->acceptor_.close(ignored);
    self->retry_.cancel();
  });
}

void Listener::do_accept() {
  acceptor_.async_accept(net::make_strand(ioc_),
                         beast::bind_front_handler(&Listener::on_accept, shared_from_this()));
}

void Listener::on_accept(beast::error_code ec, tcp::socket socket) {
  if (ec == net::error::operation_aborted) return;  // closed: we are shutting down
  if (!ec) {
    serve(std::move(socket));
    return do_accept();
  }
  // Out of descriptors (or memory): accepting again at once would fail again at once, a busy loop that also
  // floods the log. Pause, so closing connections can free what is missing, and warn at most every 10 s.
  ++failed_since_warning_;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_warning_ >= std::chrono::seconds(10)) {
    spdlog::warn("accept: {} ({} failed accepts); pausing accepts for 100 ms at a time", ec.message(),
                 failed_since_warning_);
    last_warning_ = now;
    failed_since_warning_ = 0;
  }
  retry_.expires_after(std::chrono::milliseconds(100));
  retry_.async_wait([self = shared_from_this()](beast::error_code wait_ec) {
    if (!wait_ec) self->do_accept();
  });
}

void Listener::serve(tcp::socket socket) {
  beast::error_code ec;
  const auto peer = socket.remote_endpoint(ec);
  if (ec) return;  // gone already
  std::unique_ptr<AddressLimits::Slot> slot;
  // A trusted proxy carries many clients: its WebSocket upgrades are counted for the client each one names.
  if (!context_->addresses->trusts(peer.address())) {
    slot = context_->addresses->open(context_->addresses->address_of(peer.address(), ""));
    if (!slot) {
      // Closed at once: answering would mean reading a request, holding the descriptor the cap is there to save.
      context_->metrics->message_refused("connection_cap");
      spdlog::debug("refusing a connection from {}: too many open", peer.address().to_string());
      return;
    }
  }
  std::make_shared<HttpSession>(std::move(socket), context_, std::move(slot))->run();
}

}  // namespace emporium::server
