#include "options.hpp"

#include <charconv>
#include <functional>
#include <map>
#include <stdexcept>

namespace emporium::load {

const char* const usage = R"(emporium-load: plays Maritime Silk Road on an Emporium server over loopback and prints one JSON line.
  emporium-load --port P [--server-pid PID] [options]
  emporium-load --spawn --server-bin PATH [--port P, 0: any free one] [--project DIR] [--threads N] [options]
Options:
  --tables T (10)  --players 2..4 (3)  --spectators S (0)  --seconds D (20)
  --rate R         moves a second per table; 0 (the default): each as soon as the previous one's events are in
  --on-end new|stop  a finished game is replaced by a new table (new, the default) or its table rests
  --seed N (1)  --setup-concurrency N (16)  --setup-timeout S (120)  --grace S (10)
  --msg-rate R (19)  --msg-burst B (55)   each connection's pace, under the server's limit
  --spawn  start --server-bin on a fresh data directory (--data-dir DIR instead; --keep-data keeps the fresh one)
  --check  exit 1 unless moves were accepted and none refused, no error, disconnect or view violation
)";

namespace {

template <typename Number>
Number number(const std::string& name, const std::string& text) {
  Number value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size()) {
    throw std::invalid_argument("--" + name + " takes a number, got \"" + text + "\"");
  }
  return value;
}

}  // namespace

options parse_options(const std::vector<std::string>& args) {
  options o;
  // Options that take a value, by name; flags below.
  const std::map<std::string, std::function<void(const std::string&, const std::string&)>> valued = {
      {"port", [&](auto& n, auto& v) { o.port = number<std::uint16_t>(n, v); }},
      {"tables", [&](auto& n, auto& v) { o.tables = number<int>(n, v); }},
      {"players", [&](auto& n, auto& v) { o.players = number<int>(n, v); }},
      {"spectators", [&](auto& n, auto& v) { o.spectators = number<int>(n, v); }},
      {"seconds", [&](auto& n, auto& v) { o.seconds = number<double>(n, v); }},
      {"rate", [&](auto& n, auto& v) { o.rate = number<double>(n, v); }},
      {"grace", [&](auto& n, auto& v) { o.grace = number<double>(n, v); }},
      {"setup-timeout", [&](auto& n, auto& v) { o.setup_timeout = number<double>(n, v); }},
      {"setup-concurrency", [&](auto& n, auto& v) { o.setup_concurrency = number<int>(n, v); }},
      {"seed", [&](auto& n, auto& v) { o.seed = number<std::uint32_t>(n, v); }},
      {"server-pid", [&](auto& n, auto& v) { o.server_pid = number<int>(n, v); }},
      {"msg-rate", [&](auto& n, auto& v) { o.msg_rate = number<double>(n, v); }},
      {"msg-burst", [&](auto& n, auto& v) { o.msg_burst = number<double>(n, v); }},
      {"server-bin", [&](auto&, auto& v) { o.server_bin = v; }},
      {"project", [&](auto&, auto& v) { o.project = v; }},
      {"threads", [&](auto& n, auto& v) { o.threads = number<int>(n, v); }},
      {"data-dir", [&](auto&, auto& v) { o.data_dir = v; }},
      {"on-end",
       [&](auto&, auto& v) {
         if (v != "new" && v != "stop") throw std::invalid_argument("--on-end takes new or stop");
         o.game_over = v == "new" ? on_end::new_table : on_end::stop;
       }},
  };
  const std::map<std::string, bool options::*> flags = {
      {"spawn", &options::spawn}, {"keep-data", &options::keep_data}, {"check", &options::check}};

  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i].rfind("--", 0) != 0) throw std::invalid_argument("unexpected argument " + args[i]);
    const std::string name = args[i].substr(2);
    if (const auto flag = flags.find(name); flag != flags.end()) {
      o.*(flag->second) = true;
    } else if (const auto option = valued.find(name); option != valued.end()) {
      if (i + 1 == args.size()) throw std::invalid_argument("--" + name + " needs a value");
      option->second(name, args[++i]);
    } else {
      throw std::invalid_argument("unknown option --" + name);
    }
  }
  if (o.players < 2 || o.players > 4) throw std::invalid_argument("--players must be 2..4");
  if (o.tables < 1 || o.spectators < 0 || o.seconds <= 0 || o.rate < 0 || o.setup_concurrency < 1) {
    throw std::invalid_argument("bad --tables, --spectators, --seconds, --rate or --setup-concurrency");
  }
  if (o.msg_rate <= 0 || o.msg_burst < 1) throw std::invalid_argument("bad --msg-rate or --msg-burst");
  if (o.port == 0 && !o.spawn) throw std::invalid_argument("--port 0 (any free port) is for --spawn only");
  if (o.spawn && o.server_bin.empty()) throw std::invalid_argument("--spawn needs --server-bin PATH");
  return o;
}

}  // namespace emporium::load
