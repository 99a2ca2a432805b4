#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace emporium::server {

// Server settings, from flags first, then EMPORIUM_* environment variables, then defaults.
struct Config {
  std::string bind = "0.0.0.0";
  std::uint16_t port = 8080;
  std::string data_dir = "data";
  // Where tables are kept: "sqlite:<dir>" or a "postgresql://…" URI; empty: sqlite:<data_dir>.
  std::string store;
  // Several nodes on one PostgreSQL store (docs/scaling.md): this node's name, unique in the cluster and the same
  // across its restarts. Empty: one node, which serves every table.
  std::string node;
  int lease_ms = 5000;  // several nodes: a dead node's tables are taken over within this
  std::string web_root = "web-client";
  std::string merkator_data = "engine/games/merkator/merkator-data.json";  // Merkator's components
  std::string log_level = "info";
  int threads = 0;        // 0: one per core
  std::string port_file;  // if set, the listening port is written there (useful with --port 0)
  int bot_threads = 0;    // bot decisions run on these workers (0: one fewer than the cores, at least 1)
  // Finished games' analyses (docs/analysis.md "Serving it"): threads at nice 19 (0: no analyses; never more than
  // the cores), the analyses waiting beyond those running, and the play-outs per analysis at most.
  int analysis_threads = 1;
  int analysis_queue = 50;
  long long analysis_budget = 40000;
  int analysis_asks_per_ip_per_minute = 6;  // analyses one client address may ask for in any minute (0: no cap)
  int bot_delay_ms = 800; // the pause before a bot's move, after the table's previous move (0 in tests)
  int absent_after_s = 300;  // a player disconnected this long may have their seat played by a bot
  int min_turn_s = 5;        // the shortest turn a table's clock may have (tests lower it)
  std::string allowed_origins;  // web origins besides the server's own that may open WebSockets ("*": any)
  // The origin players reach the server at ("https://play.example") when a proxy stands before it: the origin
  // passkeys are made for and the account requests must come from. Empty: each request's own scheme and Host.
  std::string public_origin;
  int max_connections_per_ip = 32;        // open connections per client address (0: no cap)
  int max_connections_per_account = 12;   // open connections per signed-in account, instead (0: no cap)
  int max_tables_per_ip_per_minute = 20;  // tables created per client address in any minute (0: no cap)
  std::string trusted_proxies;  // proxies (IP addresses, comma-separated) whose X-Forwarded-For names the client
  int abandoned_after_s = 600;  // a waiting table with nobody connected closes after this
  int forsaken_after_s = 3 * 24 * 3600;  // a casual game of one person and bots, the person away: the bots end it
  int commit_delay_ms = 0;  // for tests: the commit queue waits this long before each transaction (a slow disk)
  int finished_unwatched_s = 60;
  // E-mail (docs/mail.md): the SMTP server (empty: no mail), the sender, and for tests the length of a "minute" of a
  // player's turn delay. The SMTP user and password come from EMPORIUM_SMTP_USER and EMPORIUM_SMTP_PASSWORD only.
  std::string smtp_url;
  std::string mail_from;
  int mail_minute_ms = 60000;
  // Web Push (docs/push.md): the contact the push services may reach the operator at (the VAPID `sub`: mailto: or
  // https:; empty: no push), and for tests whether browsers' endpoints on loopback (plain http) are taken.
  std::string push_contact;
  bool push_allow_loopback = false;
  int correspondence_turn_s = 86400;  // a turn clock of at least this per move is a correspondence clock  // a finished table nobody is connected to leaves memory after this (0: never)
};

// What a store setting names: "sqlite:<directory>" (a directory is needed), or a "postgresql://…" or
// "postgres://…" URI; none otherwise. open_store (store/open_store.hpp) opens it.
enum class StoreKind { none, sqlite, postgresql };
inline StoreKind kind_of_store(const std::string& setting) {
  if (setting.rfind("sqlite:", 0) == 0) return setting.size() > 7 ? StoreKind::sqlite : StoreKind::none;
  if (setting.rfind("postgresql://", 0) == 0 || setting.rfind("postgres://", 0) == 0) return StoreKind::postgresql;
  return StoreKind::none;
}

// The store setting in effect: --store, else sqlite:<data_dir>.
inline std::string store_setting(const Config& c) { return c.store.empty() ? "sqlite:" + c.data_dir : c.store; }

// The sender of mails: --mail-from, else noreply@ the public origin's host, else noreply@localhost.
inline std::string mail_sender(const Config& c) {
  if (!c.mail_from.empty()) return c.mail_from;
  if (c.public_origin.empty()) return "noreply@localhost";
  const auto host = c.public_origin.substr(c.public_origin.find("//") + 2);
  return "noreply@" + host.substr(0, host.find(':'));
}

struct ParsedConfig {
  Config config;
  std::optional<std::string> error;  // a message for the user
  bool help = false;
};

// `env` looks an environment variable up (std::getenv in main; a map in tests).
ParsedConfig parse_config(const std::vector<std::string>& args,
                          const std::function<const char*(const char*)>& env);

std::string usage();

}  // namespace emporium::server
