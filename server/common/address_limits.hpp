#pragma once
// Per client address: the open connections and the tables created in the last minute, against their caps; and
// which address a connection is from (the peer, or the client a trusted proxy names). A signed-in connection counts
// for its account instead (a budget of its own, so that guests behind one address — a classroom, a mobile network —
// never lock its signed-in people out). Thread-safe: one mutex over two small maps, each use a short lookup (the
// listener and every session call it).
#include <chrono>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>  // before Asio: its awaitable.hpp needs std::exchange
#include <vector>

#include "common/net.hpp"

namespace emporium::server {

// The address a request is from: `peer`, unless `peer` is one of `trusted` proxies and `forwarded_for` (the
// X-Forwarded-For values, comma-joined) ends with a valid address: that last hop is the one the proxy added.
// Addresses come back in one canonical text form (IPv4-mapped IPv6 as IPv4).
std::string client_address(const net::ip::address& peer, std::string_view forwarded_for,
                           const std::vector<net::ip::address>& trusted);
bool is_trusted_proxy(const net::ip::address& peer, const std::vector<net::ip::address>& trusted);
// A comma-separated list of IP addresses; throws std::invalid_argument naming a bad entry.
std::vector<net::ip::address> parse_address_list(std::string_view list);

class AddressLimits {
 public:
  struct Caps {
    std::size_t connections = 32;       // open at once per address (0: no cap)
    std::size_t tables_per_minute = 20; // created per address, or per signed-in account, in any 60 s (0: no cap)
    std::vector<net::ip::address> trusted_proxies;  // whose X-Forwarded-For names the client
    std::size_t account_connections = 12;  // open at once per signed-in account: its tabs and devices (0: no cap)
  };
  explicit AddressLimits(Caps c) : caps_(c) {}

  // An open connection, counted for its address until destroyed. Must not outlive the registry.
  class Slot {
   public:
    Slot(AddressLimits& owner, std::string address) : owner_(owner), address_(std::move(address)) {}
    ~Slot();
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;
    const std::string& address() const { return address_; }

   private:
    AddressLimits& owner_;
    std::string address_;
  };
  // Null when `address` already has as many connections open as allowed.
  std::unique_ptr<Slot> open(const std::string& address);
  // A signed-in connection's count, for its account; null when the account has as many open as allowed.
  std::unique_ptr<Slot> open_for_account(const std::string& account) {
    return open_key(account_key(account), caps_.account_connections);
  }
  // The key a signed-in account's tables are counted under in allow_table (no address looks like it).
  static std::string account_key(const std::string& account) { return "account:" + account; }
  // Counts a table created now from `address`; false (nothing counted) when it has made its quota in the last 60 s.
  bool allow_table(const std::string& address, std::chrono::steady_clock::time_point now);

  std::size_t open_count(const std::string& address) const;

  bool trusts(const net::ip::address& peer) const { return is_trusted_proxy(peer, caps_.trusted_proxies); }
  std::string address_of(const net::ip::address& peer, std::string_view forwarded_for) const {
    return client_address(peer, forwarded_for, caps_.trusted_proxies);
  }

 private:
  std::unique_ptr<Slot> open_key(const std::string& key, std::size_t cap);
  void close(const std::string& address);

  const Caps caps_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::size_t> open_;
  std::unordered_map<std::string, std::deque<std::chrono::steady_clock::time_point>> created_;
  std::size_t created_calls_ = 0;  // every so many, addresses with nothing recent are forgotten
};

}  // namespace emporium::server
