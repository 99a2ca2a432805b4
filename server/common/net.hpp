#pragma once
// Boost.Asio, by the names the server uses for it.
#include <utility>  // before Asio: its awaitable.hpp needs std::exchange

#include <boost/asio.hpp>

namespace net = boost::asio;
using tcp = net::ip::tcp;
