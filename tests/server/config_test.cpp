#include "common/config.hpp"

#include <gtest/gtest.h>

#include <map>

namespace emporium::server {
namespace {

ParsedConfig parse(std::vector<std::string> args, std::map<std::string, std::string> env = {}) {
  return parse_config(args, [&env](const char* name) -> const char* {
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}

TEST(Config, DefaultsFlagsAndEnvironmentWithFlagsWinning) {
  auto d = parse({});
  ASSERT_FALSE(d.error);
  EXPECT_EQ(d.config.port, 8080);
  EXPECT_EQ(d.config.merkator_data, "engine/games/merkator/merkator-data.json");
  EXPECT_EQ(parse({"--merkator-data", "/srv/m.json"}).config.merkator_data, "/srv/m.json");
  EXPECT_EQ(parse({}, {{"EMPORIUM_MERKATOR_DATA", "/e.json"}}).config.merkator_data, "/e.json");
  auto p = parse({"--port", "9000", "--data-dir=/tmp/x", "--web-root", "www"},
                 {{"EMPORIUM_PORT", "7000"}, {"EMPORIUM_LOG_LEVEL", "debug"}, {"EMPORIUM_BIND", "127.0.0.1"}});
  ASSERT_FALSE(p.error) << *p.error;
  EXPECT_EQ(p.config.port, 9000);
  EXPECT_EQ(p.config.data_dir, "/tmp/x");
  EXPECT_EQ(p.config.web_root, "www");
  EXPECT_EQ(p.config.log_level, "debug");
  EXPECT_EQ(p.config.bind, "127.0.0.1");
}

TEST(Config, AbsentAfterSecondsFromTheFlagOrTheEnvironment) {
  EXPECT_EQ(parse({}).config.absent_after_s, 300);
  EXPECT_EQ(parse({"--absent-after-s", "2"}).config.absent_after_s, 2);
  EXPECT_EQ(parse({}, {{"EMPORIUM_ABSENT_AFTER_S", "600"}}).config.absent_after_s, 600);
  EXPECT_EQ(parse({"--absent-after-s=5"}, {{"EMPORIUM_ABSENT_AFTER_S", "600"}}).config.absent_after_s, 5);
  EXPECT_TRUE(parse({"--absent-after-s", "-1"}).error);
  EXPECT_TRUE(parse({"--absent-after-s", "five"}).error);
  EXPECT_NE(usage().find("--absent-after-s"), std::string::npos);
}

TEST(Config, PerAddressCapsTrustedProxiesAndAbandonedTables) {
  const auto d = parse({}).config;
  EXPECT_EQ(d.max_connections_per_ip, 32);
  EXPECT_EQ(d.max_tables_per_ip_per_minute, 20);
  EXPECT_EQ(d.trusted_proxies, "");
  EXPECT_EQ(d.abandoned_after_s, 600);
  EXPECT_EQ(d.finished_unwatched_s, 60);
  EXPECT_EQ(parse({"--finished-unwatched-s", "0"}).config.finished_unwatched_s, 0);
  EXPECT_EQ(parse({}, {{"EMPORIUM_FINISHED_UNWATCHED_S", "2"}}).config.finished_unwatched_s, 2);
  EXPECT_TRUE(parse({"--finished-unwatched-s", "-1"}).error);
  const auto p = parse({"--max-connections-per-ip", "0", "--trusted-proxies", "127.0.0.1,::1", "--abandoned-after-s=5"},
                       {{"EMPORIUM_MAX_TABLES_PER_IP_PER_MINUTE", "7"}, {"EMPORIUM_MAX_CONNECTIONS_PER_IP", "9"}});
  ASSERT_FALSE(p.error) << *p.error;
  EXPECT_EQ(p.config.max_connections_per_ip, 0);
  EXPECT_EQ(p.config.max_tables_per_ip_per_minute, 7);
  EXPECT_EQ(p.config.trusted_proxies, "127.0.0.1,::1");
  EXPECT_EQ(p.config.abandoned_after_s, 5);
  const auto bad_proxy = parse({"--trusted-proxies", "127.0.0.1,proxy.local"});
  ASSERT_TRUE(bad_proxy.error);
  EXPECT_NE(bad_proxy.error->find("proxy.local"), std::string::npos);
  EXPECT_TRUE(parse({"--max-connections-per-ip", "-1"}).error);
  EXPECT_EQ(d.max_connections_per_account, 12);
  EXPECT_EQ(parse({"--max-connections-per-account", "3"}).config.max_connections_per_account, 3);
  EXPECT_EQ(parse({}, {{"EMPORIUM_MAX_CONNECTIONS_PER_ACCOUNT", "0"}}).config.max_connections_per_account, 0);
  EXPECT_TRUE(parse({"--max-connections-per-account", "x"}).error);
  EXPECT_TRUE(parse({"--abandoned-after-s", "0"}).error);
  EXPECT_EQ(d.forsaken_after_s, 3 * 24 * 3600);
  EXPECT_EQ(parse({"--forsaken-after-s", "0"}).config.forsaken_after_s, 0);
  EXPECT_EQ(parse({}, {{"EMPORIUM_FORSAKEN_AFTER_S", "60"}}).config.forsaken_after_s, 60);
  EXPECT_TRUE(parse({"--forsaken-after-s", "-1"}).error);
  for (const char* flag : {"--max-connections-per-ip", "--max-connections-per-account", "--max-tables-per-ip-per-minute", "--trusted-proxies",
                           "--abandoned-after-s", "--forsaken-after-s", "--finished-unwatched-s"}) {
    EXPECT_NE(usage().find(flag), std::string::npos) << flag;
  }
}

TEST(Config, TheAnalyses) {
  const auto d = parse({}).config;
  EXPECT_EQ(d.analysis_threads, 1);
  EXPECT_EQ(d.analysis_queue, 50);
  EXPECT_EQ(d.analysis_budget, 40000);
  EXPECT_EQ(d.analysis_asks_per_ip_per_minute, 6);
  const auto p = parse({"--analysis-threads", "0", "--analysis-budget=200", "--analysis-asks-per-ip-per-minute", "0"},
                       {{"EMPORIUM_ANALYSIS_QUEUE", "3"}});
  ASSERT_FALSE(p.error) << *p.error;
  EXPECT_EQ(p.config.analysis_threads, 0);
  EXPECT_EQ(p.config.analysis_queue, 3);
  EXPECT_EQ(p.config.analysis_budget, 200);
  EXPECT_EQ(p.config.analysis_asks_per_ip_per_minute, 0);
  EXPECT_TRUE(parse({"--analysis-asks-per-ip-per-minute", "-1"}).error);
  EXPECT_TRUE(parse({"--analysis-threads", "-1"}).error);
  EXPECT_TRUE(parse({"--analysis-queue", "x"}).error);
  EXPECT_TRUE(parse({"--analysis-budget", "-5"}).error);
  for (const char* flag : {"--analysis-threads", "--analysis-queue", "--analysis-budget",
                           "--analysis-asks-per-ip-per-minute"}) {
    EXPECT_NE(usage().find(flag), std::string::npos) << flag;
  }
}

TEST(Config, TheStoreAndSeveralNodes) {
  // By default the SQLite store in the data directory.
  EXPECT_EQ(store_setting(parse({}).config), "sqlite:data");
  EXPECT_EQ(store_setting(parse({"--data-dir", "/var/lib/e"}).config), "sqlite:/var/lib/e");
  EXPECT_EQ(store_setting(parse({"--store", "sqlite:/x"}).config), "sqlite:/x");
  const auto pg = parse({"--node", "n1", "--lease-ms", "3000"}, {{"EMPORIUM_STORE", "postgresql://u@db/e"}});
  ASSERT_FALSE(pg.error) << *pg.error;
  EXPECT_EQ(store_setting(pg.config), "postgresql://u@db/e");
  EXPECT_EQ(pg.config.node, "n1");
  EXPECT_EQ(pg.config.lease_ms, 3000);
  EXPECT_EQ(parse({}).config.node, "");
  // Several nodes share a PostgreSQL store; a node on SQLite is refused with the reason.
  const auto lonely = parse({"--node", "n1"});
  ASSERT_TRUE(lonely.error);
  EXPECT_NE(lonely.error->find("PostgreSQL"), std::string::npos);
  EXPECT_TRUE(parse({"--store", "mysql://x"}).error);
  EXPECT_TRUE(parse({"--store", "sqlite:"}).error);
  EXPECT_TRUE(parse({"--node", "a b", "--store", "postgres://x"}).error);
  EXPECT_TRUE(parse({"--lease-ms", "100"}).error);
}

TEST(Config, ThePublicOriginIsAnOriginOnly) {
  EXPECT_EQ(parse({}).config.public_origin, "");
  EXPECT_EQ(parse({"--public-origin", "https://play.example"}).config.public_origin, "https://play.example");
  EXPECT_EQ(parse({}, {{"EMPORIUM_PUBLIC_ORIGIN", "http://laptop.local:8080"}}).config.public_origin,
            "http://laptop.local:8080");
  EXPECT_TRUE(parse({"--public-origin", "play.example"}).error);
  EXPECT_TRUE(parse({"--public-origin", "https://play.example/"}).error);
  EXPECT_TRUE(parse({"--public-origin", "https://play.example/games"}).error);
}

TEST(Config, BadValuesAreExplained) {
  EXPECT_TRUE(parse({"--port", "70000"}).error);
  EXPECT_TRUE(parse({"--port", "12ab"}).error);
  EXPECT_TRUE(parse({"--port"}).error);
  EXPECT_TRUE(parse({"--colour", "red"}).error);
  EXPECT_TRUE(parse({"stray"}).error);
  EXPECT_TRUE(parse({"--log-level", "loud"}).error);
  auto env = parse({}, {{"EMPORIUM_THREADS", "-1"}});
  ASSERT_TRUE(env.error);
  EXPECT_NE(env.error->find("EMPORIUM_THREADS"), std::string::npos);
  EXPECT_TRUE(parse({"--help"}).help);
}

}  // namespace
}  // namespace emporium::server
