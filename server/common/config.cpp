#include "common/config.hpp"

#include <charconv>
#include <stdexcept>

#include "common/address_limits.hpp"

namespace emporium::server {
namespace {

bool parse_int(const std::string& text, long min, long max, long* out) {
  long value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size() || value < min || value > max) return false;
  *out = value;
  return true;
}

// Applies one setting; returns an error message or nothing.
std::optional<std::string> set(Config& c, const std::string& name, const std::string& value) {
  long n = 0;
  if (name == "bind") {
    c.bind = value;
  } else if (name == "port") {
    if (!parse_int(value, 0, 65535, &n)) return "port must be a number from 0 to 65535";
    c.port = static_cast<std::uint16_t>(n);
  } else if (name == "data-dir") {
    c.data_dir = value;
  } else if (name == "store") {
    if (kind_of_store(value) == StoreKind::none) return "store must be sqlite:<directory> or a postgresql://… URI";
    c.store = value;
  } else if (name == "node") {
    if (value.empty() || value.size() > 64 || value.find(' ') != std::string::npos) {
      return "node must be a name of 1 to 64 characters without spaces";
    }
    c.node = value;
  } else if (name == "lease-ms") {
    if (!parse_int(value, 500, 600000, &n)) return "lease-ms must be a number of milliseconds from 500 to 600000";
    c.lease_ms = static_cast<int>(n);
  } else if (name == "web-root") {
    c.web_root = value;
  } else if (name == "merkator-data") {
    c.merkator_data = value;
  } else if (name == "log-level") {
    if (value != "trace" && value != "debug" && value != "info" && value != "warn" && value != "error" &&
        value != "critical" && value != "off") {
      return "log-level must be one of trace, debug, info, warn, error, critical, off";
    }
    c.log_level = value;
  } else if (name == "port-file") {
    c.port_file = value;
  } else if (name == "threads") {
    if (!parse_int(value, 0, 256, &n)) return "threads must be a number from 0 to 256";
    c.threads = static_cast<int>(n);
  } else if (name == "bot-threads") {
    if (!parse_int(value, 0, 256, &n)) return "bot-threads must be a number from 0 to 256";
    c.bot_threads = static_cast<int>(n);
  } else if (name == "analysis-threads") {
    if (!parse_int(value, 0, 256, &n)) return "analysis-threads must be a number from 0 to 256";
    c.analysis_threads = static_cast<int>(n);
  } else if (name == "analysis-queue") {
    if (!parse_int(value, 0, 10000, &n)) return "analysis-queue must be a number from 0 to 10000";
    c.analysis_queue = static_cast<int>(n);
  } else if (name == "analysis-asks-per-ip-per-minute") {
    if (!parse_int(value, 0, 1000000, &n)) return "analysis-asks-per-ip-per-minute must be a number from 0 (no cap) to 1000000";
    c.analysis_asks_per_ip_per_minute = static_cast<int>(n);
  } else if (name == "analysis-budget") {
    if (!parse_int(value, 0, 100000000, &n)) return "analysis-budget must be a number of play-outs from 0 to 100000000";
    c.analysis_budget = n;
  } else if (name == "bot-delay-ms") {
    if (!parse_int(value, 0, 60000, &n)) return "bot-delay-ms must be a number of milliseconds from 0 to 60000";
    c.bot_delay_ms = static_cast<int>(n);
  } else if (name == "absent-after-s") {
    if (!parse_int(value, 0, 7 * 24 * 3600, &n)) return "absent-after-s must be a number of seconds from 0 to 604800";
    c.absent_after_s = static_cast<int>(n);
  } else if (name == "allowed-origins") {
    c.allowed_origins = value;
  } else if (name == "public-origin") {
    const bool scheme = value.rfind("https://", 0) == 0 || value.rfind("http://", 0) == 0;
    if (!value.empty() && (!scheme || value.back() == '/' || value.find('/', value.find("//") + 2) != std::string::npos)) {
      return "public-origin must be an origin such as https://play.example (a scheme and a host, no path)";
    }
    c.public_origin = value;
  } else if (name == "max-connections-per-ip") {
    if (!parse_int(value, 0, 1000000, &n)) return "max-connections-per-ip must be a number from 0 (no cap) to 1000000";
    c.max_connections_per_ip = static_cast<int>(n);
  } else if (name == "max-connections-per-account") {
    if (!parse_int(value, 0, 1000000, &n)) {
      return "max-connections-per-account must be a number from 0 (no cap) to 1000000";
    }
    c.max_connections_per_account = static_cast<int>(n);
  } else if (name == "max-tables-per-ip-per-minute") {
    if (!parse_int(value, 0, 1000000, &n)) {
      return "max-tables-per-ip-per-minute must be a number from 0 (no cap) to 1000000";
    }
    c.max_tables_per_ip_per_minute = static_cast<int>(n);
  } else if (name == "trusted-proxies") {
    try {
      parse_address_list(value);
    } catch (const std::invalid_argument& e) {
      return std::string("trusted-proxies: ") + e.what();
    }
    c.trusted_proxies = value;
  } else if (name == "abandoned-after-s") {
    if (!parse_int(value, 1, 7 * 24 * 3600, &n)) {
      return "abandoned-after-s must be a number of seconds from 1 to 604800";
    }
    c.abandoned_after_s = static_cast<int>(n);
  } else if (name == "forsaken-after-s") {
    if (!parse_int(value, 0, 365 * 24 * 3600, &n)) {
      return "forsaken-after-s must be a number of seconds from 0 (never) to 31536000";
    }
    c.forsaken_after_s = static_cast<int>(n);
  } else if (name == "finished-unwatched-s") {
    if (!parse_int(value, 0, 7 * 24 * 3600, &n)) {
      return "finished-unwatched-s must be a number of seconds from 0 (keep them) to 604800";
    }
    c.finished_unwatched_s = static_cast<int>(n);
  } else if (name == "commit-delay-ms") {
    if (!parse_int(value, 0, 10000, &n)) return "commit-delay-ms must be a number of milliseconds from 0 to 10000";
    c.commit_delay_ms = static_cast<int>(n);
  } else if (name == "smtp-url") {
    if (!value.empty() && value.rfind("smtp://", 0) != 0 && value.rfind("smtps://", 0) != 0) {
      return "smtp-url must be smtp://host:port or smtps://host:port (the user and password go in "
             "EMPORIUM_SMTP_USER and EMPORIUM_SMTP_PASSWORD)";
    }
    if (value.find('@') != std::string::npos) {
      return "smtp-url must not hold a user or password: set EMPORIUM_SMTP_USER and EMPORIUM_SMTP_PASSWORD";
    }
    c.smtp_url = value;
  } else if (name == "mail-from") {
    const auto at = value.find('@');
    if (at == std::string::npos || at == 0 || at + 1 == value.size() || value.find_first_of(" <>\r\n") != std::string::npos) {
      return "mail-from must be an address such as noreply@play.example";
    }
    c.mail_from = value;
  } else if (name == "push-contact") {
    if (!value.empty() && ((!value.starts_with("mailto:") && !value.starts_with("https://")) ||
                           value.find_first_of("\"\\ ") != std::string::npos)) {
      return "push-contact must be mailto:you@example.org or an https:// page: the push services' way to reach you";
    }
    c.push_contact = value;
  } else if (name == "push-allow-loopback") {
    if (value != "0" && value != "1") return "push-allow-loopback must be 1 (for tests) or 0";
    c.push_allow_loopback = value == "1";
  } else if (name == "mail-minute-ms") {
    if (!parse_int(value, 1, 60000, &n)) return "mail-minute-ms must be a number of milliseconds from 1 to 60000";
    c.mail_minute_ms = static_cast<int>(n);
  } else if (name == "correspondence-turn-s") {
    if (!parse_int(value, 1, 86400, &n)) return "correspondence-turn-s must be a number of seconds from 1 to 86400";
    c.correspondence_turn_s = static_cast<int>(n);
  } else if (name == "min-turn-s") {
    if (!parse_int(value, 1, 86400, &n)) return "min-turn-s must be a number of seconds from 1 to 86400";
    c.min_turn_s = static_cast<int>(n);
  } else {
    return "unknown option --" + name;
  }
  return std::nullopt;
}

constexpr const char* kNames[] = {"bind",      "port",    "data-dir", "store", "node", "lease-ms",  "web-root",    "log-level",
                                  "threads",   "port-file", "merkator-data", "bot-threads", "bot-delay-ms",
                                  "analysis-threads", "analysis-queue", "analysis-budget", "analysis-asks-per-ip-per-minute",
                                  "absent-after-s", "min-turn-s", "allowed-origins", "max-connections-per-ip",
                                  "max-connections-per-account",                                  "max-tables-per-ip-per-minute", "trusted-proxies", "abandoned-after-s",
                                  "forsaken-after-s", "finished-unwatched-s", "commit-delay-ms", "public-origin", "smtp-url",
                                  "mail-from", "mail-minute-ms", "correspondence-turn-s", "push-contact",
                                  "push-allow-loopback"};

}  // namespace

std::string usage() {
  return "usage: emporium-server [--bind ADDR] [--port N] [--data-dir DIR] [--store STORE] [--web-root DIR]\n"
         "                       [--log-level trace|debug|info|warn|error] [--threads N] [--port-file PATH]\n"
         "                       [--merkator-data FILE] [--bot-threads N] [--bot-delay-ms MS]\n"
         "                       [--analysis-threads N] [--analysis-queue N] [--analysis-budget B]\n"
         "                       [--analysis-asks-per-ip-per-minute N]\n"
         "                       [--absent-after-s S] [--min-turn-s S] [--allowed-origins LIST]\n"
         "                       [--max-connections-per-ip N] [--max-connections-per-account N]\n"
         "                       [--max-tables-per-ip-per-minute N]\n"
         "                       [--trusted-proxies LIST] [--abandoned-after-s S] [--forsaken-after-s S]\n"
         "                       [--finished-unwatched-s S]\n"
         "                       [--commit-delay-ms MS] [--public-origin ORIGIN]\n"
         "                       [--smtp-url URL] [--mail-from ADDRESS] [--correspondence-turn-s S]\n"
         "                       [--push-contact CONTACT]\n"
         "  --data-dir DIR      where the SQLite store keeps its database (default data)\n"
         "  --store STORE       sqlite:<directory> (default: sqlite:<data-dir>), or postgresql://user@host:port/db\n"
         "                      (a libpq URI) to keep tables in PostgreSQL\n"
         "  --node NAME         one of several nodes sharing a PostgreSQL store behind a proxy (docs/scaling.md):\n"
         "                      this node's name, unique and the same across its restarts (default: a single node)\n"
         "  --lease-ms MS       with --node: a dead node's tables are taken over within this (default 5000)\n"
         "  --bot-threads N     workers for computer players' decisions (default: cores - 1, at least 1)\n"
         "  --bot-delay-ms MS   pause before a computer player's move, after the previous move (default 800)\n"
         "  --analysis-threads N  finished games' analyses computed at once, at the lowest priority (default 1;\n"
         "                      0: no analyses; at most the cores)\n"
         "  --analysis-queue N  analyses that may wait beyond those running; more are refused (default 50)\n"
         "  --analysis-budget B play-outs per analysis at most (default 40000; 0: no bound)\n"
         "  --analysis-asks-per-ip-per-minute N  analyses one client address may ask for in any minute (default 6;\n"
         "                       0: no cap)\n"
         "  --absent-after-s S  a player disconnected this long may have a bot take their seat (default 300)\n"
         "  --min-turn-s S      the shortest turn a table's clock may give (default 5)\n"
         "  --allowed-origins LIST  web origins (comma-separated, or *) besides the server's own whose pages may\n"
         "                      open WebSocket connections; clients that send no Origin are always let in\n"
         "  --max-connections-per-ip N  connections one client address may hold open (default 32; 0: no cap)\n"
         "  --max-connections-per-account N  WebSockets one signed-in account may hold open, counted for it instead\n"
         "                      of its address (default 12; 0: no cap)\n"
         "  --max-tables-per-ip-per-minute N  tables one client address may create in any minute (default 20; 0: no cap)\n"
         "  --trusted-proxies LIST  IP addresses (comma-separated) of reverse proxies whose X-Forwarded-For (its last\n"
         "                      entry) names the client; from anyone else the header is ignored (default: none)\n"
         "  --abandoned-after-s S  a waiting table whose people are all disconnected closes after this (default 600)\n"
         "  --forsaken-after-s S  a casual game of one person against bots, that person away this long, is played to\n"
         "                      its end by the bots (default 259200, three days; 0: never)\n"
         "  --finished-unwatched-s S  a finished table nobody is connected to leaves memory after this; the store\n"
         "                      keeps it and it comes back when asked for (default 60; 0: keep finished tables)\n"
         "  --public-origin ORIGIN  the origin players reach the server at, e.g. https://play.example, when it is\n"
         "                      behind a proxy: passkeys are made for it (default: the scheme and Host of each\n"
         "                      request)\n"
         "  --smtp-url URL      send e-mail (docs/mail.md) through this SMTP server: smtp://host:port (STARTTLS\n"
         "                      when offered) or smtps://host:port; a user and password come from\n"
         "                      EMPORIUM_SMTP_USER and EMPORIUM_SMTP_PASSWORD (default: no e-mail)\n"
         "  --mail-from ADDRESS the sender of every mail (default: noreply@ the public origin's host)\n"
         "  --correspondence-turn-s S  a turn clock of at least this per move is a correspondence clock: players\n"
         "                      away are mailed when its time runs low (default 86400, a day)\n"
         "  --mail-minute-ms MS for tests: how long a minute of a player's \"your turn\" delay lasts (default 60000)\n"
         "  --push-contact CONTACT  send Web Push notifications (docs/push.md) to the browsers players allow; the\n"
         "                      push services may reach you at CONTACT, mailto:you@example.org or an https:// page\n"
         "                      (default: no push)\n"
         "  --push-allow-loopback 1  for tests: browsers' push endpoints on this machine (http://127.0.0.1:PORT)\n"
         "                      are taken, not only https:// ones (default 0)\n"
         "  --commit-delay-ms MS  for tests: the store's writer waits this long before each group commit, as a\n"
         "                      slow disk would (default 0)\n"
         "Each flag can also be set as an environment variable: EMPORIUM_BIND, EMPORIUM_PORT,\n"
         "EMPORIUM_DATA_DIR, EMPORIUM_STORE, EMPORIUM_NODE, EMPORIUM_LEASE_MS, EMPORIUM_WEB_ROOT, EMPORIUM_LOG_LEVEL, EMPORIUM_THREADS, EMPORIUM_PORT_FILE,\n"
         "EMPORIUM_MERKATOR_DATA, EMPORIUM_BOT_THREADS, EMPORIUM_BOT_DELAY_MS, EMPORIUM_ANALYSIS_THREADS,\n"
         "EMPORIUM_ANALYSIS_QUEUE, EMPORIUM_ANALYSIS_BUDGET, EMPORIUM_ANALYSIS_ASKS_PER_IP_PER_MINUTE,\n"
         "EMPORIUM_ABSENT_AFTER_S, EMPORIUM_MIN_TURN_S, EMPORIUM_ALLOWED_ORIGINS, EMPORIUM_MAX_CONNECTIONS_PER_IP,\n"
         "EMPORIUM_MAX_CONNECTIONS_PER_ACCOUNT, EMPORIUM_MAX_TABLES_PER_IP_PER_MINUTE, EMPORIUM_TRUSTED_PROXIES, EMPORIUM_ABANDONED_AFTER_S,\n"
         "EMPORIUM_FINISHED_UNWATCHED_S, EMPORIUM_COMMIT_DELAY_MS, EMPORIUM_PUBLIC_ORIGIN, EMPORIUM_SMTP_URL,\n"
         "EMPORIUM_MAIL_FROM, EMPORIUM_MAIL_MINUTE_MS, EMPORIUM_CORRESPONDENCE_TURN_S, EMPORIUM_PUSH_CONTACT,\n"
         "EMPORIUM_PUSH_ALLOW_LOOPBACK.\n"
         "Flags win over the environment.\n";
}

ParsedConfig parse_config(const std::vector<std::string>& args,
                          const std::function<const char*(const char*)>& env) {
  ParsedConfig out;
  for (const char* name : kNames) {
    std::string var = "EMPORIUM_";
    for (const char* p = name; *p; ++p) var += *p == '-' ? '_' : static_cast<char>(std::toupper(*p));
    if (const char* value = env(var.c_str())) {
      if (auto error = set(out.config, name, value)) {
        out.error = var + ": " + *error;
        return out;
      }
    }
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "-h" || arg == "--help") {
      out.help = true;
      return out;
    }
    if (arg.rfind("--", 0) != 0) {
      out.error = "unexpected argument '" + arg + "'";
      return out;
    }
    std::string name = arg.substr(2), value;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      out.error = "--" + name + " needs a value";
      return out;
    }
    if (auto error = set(out.config, name, value)) {
      out.error = *error;
      return out;
    }
  }
  if (!out.config.node.empty() && kind_of_store(store_setting(out.config)) != StoreKind::postgresql) {
    out.error = "--node needs a PostgreSQL store (--store postgresql://…): the nodes share it";
  }
  return out;
}

}  // namespace emporium::server
