#include "common/address_limits.hpp"

#include <gtest/gtest.h>

namespace emporium::server {
namespace {

using namespace std::chrono_literals;
const auto kStart = std::chrono::steady_clock::time_point{} + 1000h;

net::ip::address ip(const char* text) { return net::ip::make_address(text); }

TEST(AddressLimits, ConnectionsAreCappedPerAddressAndFreedWithTheirSlot) {
  AddressLimits limits({2, 0, {}});
  auto a = limits.open("10.0.0.1");
  auto b = limits.open("10.0.0.1");
  ASSERT_TRUE(a && b);
  EXPECT_FALSE(limits.open("10.0.0.1"));  // the third from the same address
  EXPECT_TRUE(limits.open("10.0.0.2"));   // another address is not affected (and its slot ends at once)
  EXPECT_EQ(limits.open_count("10.0.0.1"), 2u);
  a.reset();
  EXPECT_EQ(limits.open_count("10.0.0.1"), 1u);
  EXPECT_TRUE(limits.open("10.0.0.1"));
  EXPECT_EQ(limits.open_count("10.0.0.2"), 0u);
}

TEST(AddressLimits, ASignedInAccountHasABudgetOfItsOwn) {
  AddressLimits::Caps caps{2, 2, {}};
  caps.account_connections = 3;
  AddressLimits limits(caps);
  auto a = limits.open("10.0.0.1");
  auto b = limits.open("10.0.0.1");
  ASSERT_TRUE(a && b);
  EXPECT_FALSE(limits.open("10.0.0.1"));  // the address is full of guests...
  std::vector<std::unique_ptr<AddressLimits::Slot>> ann;
  for (int i = 0; i < 3; ++i) ann.push_back(limits.open_for_account("ann"));
  EXPECT_TRUE(ann.back());  // ...and an account's connections are counted apart, up to their own cap
  EXPECT_FALSE(limits.open_for_account("ann"));
  EXPECT_TRUE(limits.open_for_account("bo"));
  EXPECT_EQ(limits.open_count("10.0.0.1"), 2u);
  // Tables too: an account's count is not its address's.
  const auto ann_key = AddressLimits::account_key("ann");
  EXPECT_TRUE(limits.allow_table("10.0.0.1", kStart));
  EXPECT_TRUE(limits.allow_table("10.0.0.1", kStart));
  EXPECT_FALSE(limits.allow_table("10.0.0.1", kStart));
  EXPECT_TRUE(limits.allow_table(ann_key, kStart));
  EXPECT_NE(ann_key, "ann");
}

TEST(AddressLimits, ZeroMeansNoCap) {
  AddressLimits limits({0, 0, {}});
  std::vector<std::unique_ptr<AddressLimits::Slot>> open;
  for (int i = 0; i < 1000; ++i) open.push_back(limits.open("10.0.0.1"));
  EXPECT_TRUE(open.back());
  for (int i = 0; i < 1000; ++i) EXPECT_TRUE(limits.allow_table("10.0.0.1", kStart));
}

TEST(AddressLimits, TablesPerMinuteIsASlidingWindow) {
  AddressLimits limits({0, 3, {}});
  EXPECT_TRUE(limits.allow_table("a", kStart));
  EXPECT_TRUE(limits.allow_table("a", kStart + 10s));
  EXPECT_TRUE(limits.allow_table("a", kStart + 20s));
  EXPECT_FALSE(limits.allow_table("a", kStart + 30s));  // a refusal is not counted...
  EXPECT_TRUE(limits.allow_table("b", kStart + 30s));   // ...and other addresses have their own quota
  EXPECT_FALSE(limits.allow_table("a", kStart + 59s));
  EXPECT_TRUE(limits.allow_table("a", kStart + 60s));   // the first one is a minute old
  EXPECT_FALSE(limits.allow_table("a", kStart + 61s));
  EXPECT_TRUE(limits.allow_table("a", kStart + 70s));
}

TEST(ClientAddress, TheForwardedAddressCountsOnlyFromATrustedProxy) {
  const std::vector<net::ip::address> proxies = {ip("10.0.0.5"), ip("::1")};
  // Not a proxy: the header is the client's own say-so.
  EXPECT_EQ(client_address(ip("203.0.113.9"), "198.51.100.1", proxies), "203.0.113.9");
  EXPECT_EQ(client_address(ip("203.0.113.9"), "198.51.100.1", {}), "203.0.113.9");
  // A trusted proxy: the last hop, the one it added; earlier entries may be forged.
  EXPECT_EQ(client_address(ip("10.0.0.5"), "198.51.100.1", proxies), "198.51.100.1");
  EXPECT_EQ(client_address(ip("10.0.0.5"), "1.2.3.4, 5.6.7.8,198.51.100.1 ", proxies), "198.51.100.1");
  EXPECT_EQ(client_address(ip("::1"), "2001:db8::7", proxies), "2001:db8::7");
  // Nothing usable forwarded: the proxy's own address.
  EXPECT_EQ(client_address(ip("10.0.0.5"), "", proxies), "10.0.0.5");
  EXPECT_EQ(client_address(ip("10.0.0.5"), "1.2.3.4, unknown", proxies), "10.0.0.5");
  // IPv4-mapped IPv6 (a dual-stack listener) is the same address as IPv4, for proxies and for counting.
  EXPECT_EQ(client_address(ip("::ffff:10.0.0.5"), "198.51.100.1", proxies), "198.51.100.1");
  EXPECT_EQ(client_address(ip("::ffff:203.0.113.9"), "", {}), "203.0.113.9");
  EXPECT_TRUE(is_trusted_proxy(ip("::ffff:10.0.0.5"), proxies));
  EXPECT_FALSE(is_trusted_proxy(ip("10.0.0.6"), proxies));
}

TEST(ClientAddress, AddressListsAreParsedAndBadEntriesNamed) {
  EXPECT_TRUE(parse_address_list("").empty());
  const auto list = parse_address_list(" 127.0.0.1, ::1 ,,10.1.2.3");
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[1], ip("::1"));
  try {
    parse_address_list("127.0.0.1,proxy.example");
    FAIL() << "a host name is not an address";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("proxy.example"), std::string::npos);
  }
}

}  // namespace
}  // namespace emporium::server
