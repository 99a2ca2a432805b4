#pragma once
#include <boost/asio.hpp>

namespace net = boost::asio;
using tcp = net::ip::tcp;
