#include "listener.hpp"

#include <spdlog/spdlog.h>

#include "http_session.hpp"

namespace emporium::server {

listener::listener(net::io_context& ioc, tcp::endpoint endpoint, std::shared_ptr<const server_context> context)
    : ioc_(ioc), acceptor_(net::make_strand(ioc)), context_(std::move(context)) {
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(net::socket_base::reuse_address(true));
  acceptor_.bind(endpoint);
  acceptor_.listen(net::socket_base::max_listen_connections);
}

void listener::run() { do_accept(); }

void listener::stop() {
  net::post(acceptor_.get_executor(), [self = shared_from_this()] {
    beast::error_code ignored;
    self->acceptor_.close(ignored);
  });
}

void listener::do_accept() {
  acceptor_.async_accept(net::make_strand(ioc_),
                         beast::bind_front_handler(&listener::on_accept, shared_from_this()));
}

void listener::on_accept(beast::error_code ec, tcp::socket socket) {
  if (ec == net::error::operation_aborted) return;  // closed: we are shutting down
  if (ec) {
    spdlog::warn("accept: {}", ec.message());
  } else {
    std::make_shared<http_session>(std::move(socket), context_)->run();
  }
  do_accept();
}

}  // namespace emporium::server
