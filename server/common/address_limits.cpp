#include "common/address_limits.hpp"

#include <stdexcept>

namespace emporium::server {
namespace {

constexpr auto kTableWindow = std::chrono::seconds(60);

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

net::ip::address canonical(net::ip::address a) {
  if (a.is_v6() && a.to_v6().is_v4_mapped()) return net::ip::make_address_v4(net::ip::v4_mapped, a.to_v6());
  return a;
}

}  // namespace

bool is_trusted_proxy(const net::ip::address& peer, const std::vector<net::ip::address>& trusted) {
  const auto p = canonical(peer);
  for (const auto& t : trusted) {
    if (canonical(t) == p) return true;
  }
  return false;
}

std::string client_address(const net::ip::address& peer, std::string_view forwarded_for,
                           const std::vector<net::ip::address>& trusted) {
  if (is_trusted_proxy(peer, trusted)) {
    // Only the last hop: the proxy appends the address it saw; whatever came before it is the client's say-so.
    const auto comma = forwarded_for.rfind(',');
    const auto last = trimmed(comma == std::string_view::npos ? forwarded_for : forwarded_for.substr(comma + 1));
    boost::system::error_code ec;
    const auto forwarded = net::ip::make_address(std::string(last), ec);
    if (!ec) return canonical(forwarded).to_string();
  }
  return canonical(peer).to_string();
}

std::vector<net::ip::address> parse_address_list(std::string_view list) {
  std::vector<net::ip::address> out;
  while (!list.empty()) {
    const auto comma = list.find(',');
    const auto item = trimmed(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    if (item.empty()) continue;
    boost::system::error_code ec;
    out.push_back(net::ip::make_address(std::string(item), ec));
    if (ec) throw std::invalid_argument("'" + std::string(item) + "' is not an IP address");
  }
  return out;
}

AddressLimits::Slot::~Slot() { owner_.close(address_); }

std::unique_ptr<AddressLimits::Slot> AddressLimits::open(const std::string& address) {
  return open_key(address, caps_.connections);
}

std::unique_ptr<AddressLimits::Slot> AddressLimits::open_key(const std::string& key, std::size_t cap) {
  std::lock_guard lock(mutex_);
  auto& n = open_[key];
  if (cap != 0 && n >= cap) {
    if (n == 0) open_.erase(key);
    return nullptr;
  }
  ++n;
  return std::make_unique<Slot>(*this, key);
}

void AddressLimits::close(const std::string& address) {
  std::lock_guard lock(mutex_);
  auto it = open_.find(address);
  if (it != open_.end() && --it->second == 0) open_.erase(it);
}

std::size_t AddressLimits::open_count(const std::string& address) const {
  std::lock_guard lock(mutex_);
  auto it = open_.find(address);
  return it == open_.end() ? 0 : it->second;
}

bool AddressLimits::allow_table(const std::string& address, std::chrono::steady_clock::time_point now) {
  if (caps_.tables_per_minute == 0) return true;
  std::lock_guard lock(mutex_);
  auto forget_old = [&](std::deque<std::chrono::steady_clock::time_point>& times) {
    while (!times.empty() && now - times.front() >= kTableWindow) times.pop_front();
  };
  if (++created_calls_ % 1024 == 0) {
    for (auto it = created_.begin(); it != created_.end();) {
      forget_old(it->second);
      it = it->second.empty() ? created_.erase(it) : std::next(it);
    }
  }
  auto& times = created_[address];
  forget_old(times);
  if (times.size() >= caps_.tables_per_minute) return false;
  times.push_back(now);
  return true;
}

}  // namespace emporium::server
