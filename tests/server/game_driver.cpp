#include "game_driver.hpp"

#include <algorithm>
#include <stdexcept>

#include <emporium/engine/rng.hpp>

namespace emporium::testing {
namespace {
void expect_reply(const Json& reply, const std::string& type) {
  if (reply.value("type", "") != type) throw std::runtime_error("expected " + type + ", got " + reply.dump());
}
}  // namespace

void seat_tracker::catch_up() {
  for (const auto& frame : client->log_from(cursor)) {
    ++cursor;
    const Json j = Json::parse(frame);
    const std::string type = j.value("type", "");
    if ((type == "snapshot" || type == "events") && j.value("table", "") == table) {
      version = j["version"];
      legal = j["legal"];
      // The driver plays the game's own actions, and takes a step back only when asked to (play's undo_one_in).
      undo_offered = !legal.empty() && legal.back() == Json{{"type", "undo"}};
      if (undo_offered) legal.erase(legal.size() - 1);
      if (j.contains("clock")) clock = j["clock"];
      if (type == "snapshot" && j["view"].value("phase", "") == "over") over = true;
      if (type == "events") {
        events.push_back(j["events"]);
        for (const auto& e : j["events"]) over |= e.value("type", "") == "game_over";
      }
    }
  }
}

// Plays random legal moves until the game ends (or `stop_after` actions), always acting with the
// version the mover last saw, then waiting for every tracker to see the new version.
played play(std::vector<seat_tracker*> seats, std::vector<seat_tracker*> watchers, std::uint64_t rng_seed,
            int stop_after, const std::function<bool(const seat_tracker&)>& pause_when, int undo_one_in) {
  engine::Rng rng(rng_seed);
  played out;
  auto all = seats;
  all.insert(all.end(), watchers.begin(), watchers.end());
  const auto deadline = std::chrono::steady_clock::now() + 120s;
  while (out.actions < stop_after) {
    if (std::chrono::steady_clock::now() > deadline) throw std::runtime_error("game did not finish in time");
    for (auto* s : all) s->catch_up();
    if (std::all_of(seats.begin(), seats.end(), [](auto* s) { return s->over; })) break;
    seat_tracker* mover = nullptr;
    for (auto* s : seats) {
      if (!s->legal.empty()) mover = s;
    }
    if (!mover) {
      for (auto* s : seats) s->client->wait_log_beyond(s->cursor, 2ms);
      continue;
    }
    if (pause_when && pause_when(*mover)) break;
    const auto& legal = mover->legal;
    const Json action = mover->undo_offered && undo_one_in > 0 && rng.below(undo_one_in) == 0
                            ? Json{{"type", "undo"}}
                            : legal[rng.below(3) == 0 ? 0 : rng.below(legal.size())];
    out.undos += action["type"] == "undo";
    const auto sent = std::chrono::steady_clock::now();
    const Json act = {{"type", "act"}, {"table", mover->table}, {"version", mover->version}, {"action", action}};
    const Json reply = request_within_rate(*mover->client, act);
    if (reply["type"] != "ack") throw std::runtime_error("action refused: " + reply.dump());
    const std::uint64_t v = reply["version"];
    for (auto* s : all) {
      s->catch_up();
      while (s->version < v) {
        if (std::chrono::steady_clock::now() > deadline) throw std::runtime_error("events did not arrive");
        s->client->wait_log_beyond(s->cursor, 100ms);
        s->catch_up();
      }
    }
    out.latencies_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - sent).count());
    ++out.actions;
  }
  return out;
}

Json request_within_rate(ws_client& client, const Json& message) {
  Json reply = client.request(message);
  while (reply.value("code", "") == "rate_limited") {
    std::this_thread::sleep_for(100ms);
    reply = client.request(message);
  }
  return reply;
}

void act_first(seat_tracker& mover, const std::vector<seat_tracker*>& seats) {
  const Json reply = mover.client->request(
      {{"type", "act"}, {"table", mover.table}, {"version", mover.version}, {"action", mover.legal[0]}});
  expect_reply(reply, "ack");
  const std::uint64_t v = reply["version"];
  for (auto* s : seats) {
    for (int i = 0; i < 100 && s->version < v; ++i) {
      s->client->wait_log_beyond(s->cursor, 50ms);
      s->catch_up();
    }
    if (s->version < v) throw std::runtime_error("a seat did not see version " + std::to_string(v));
  }
}

void finish(std::vector<seat_tracker*> seats, std::uint64_t rng_seed) {
  play(seats, {}, rng_seed);
  for (auto* s : seats) {
    for (int i = 0; i < 300 && !s->over; ++i) {
      s->client->wait_log_beyond(s->cursor, 100ms);
      s->catch_up();
    }
    if (!s->over) throw std::runtime_error("the game at " + s->table + " did not end");
  }
}

Json table_where(ws_client& c, const std::string& id, int seat, const std::function<bool(const Json&)>& match,
                 std::chrono::milliseconds timeout) {
  return c.wait_for(
      [&](const Json& f) {
        return f["type"] == "table" && f["table"]["id"] == id && match(f["table"]["seats"][seat]);
      },
      timeout)["table"];
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(p * static_cast<double>(v.size() - 1))];
}

table_setup seat_players(std::uint16_t port, int n, bool is_private, const std::string& game, const Json& clock,
                         int seats) {
  table_setup t;
  for (int i = 0; i < n; ++i) {
    t.players.push_back(std::make_unique<ws_client>(port));
    t.players.back()->wait_type("welcome");
    expect_reply(t.players.back()->request({{"type", "set_name"}, {"name", "P" + std::to_string(i)}}), "hello");
  }
  Json create = {{"type", "create_table"}, {"game", game}, {"players", seats > 0 ? seats : n}, {"private", is_private}};
  if (!clock.is_null()) create["clock"] = clock;
  Json created = t.players[0]->request(create);
  expect_reply(created, "seated");
  t.id = created["table"]["id"];
  t.invite = created.value("invite", "");
  t.tokens.push_back(created["token"]);
  for (int i = 1; i < n; ++i) {
    Json join = {{"type", "join"}};
    if (is_private) {
      join["invite"] = t.invite;
    } else {
      join["table"] = t.id;
    }
    Json seated = t.players[i]->request(join);
    expect_reply(seated, "seated");
    if (seated["seat"] != i) throw std::runtime_error("seated at the wrong seat: " + seated.dump());
    t.tokens.push_back(seated["token"]);
  }
  return t;
}

void start(table_setup& t) {
  Json ack = t.players[0]->request({{"type", "start"}, {"table", t.id}});
  expect_reply(ack, "ack");
}

table_setup seat_with_bots(std::uint16_t port, const std::string& game, const std::vector<std::string>& levels,
                           bool start_it) {
  table_setup t;
  t.players.push_back(std::make_unique<ws_client>(port));
  auto& client = *t.players.back();
  client.wait_type("welcome");
  const Json created = client.request({{"type", "create_table"},
                                       {"game", game},
                                       {"players", static_cast<int>(levels.size()) + 1},
                                       {"private", true}});
  expect_reply(created, "seated");
  t.id = created["table"]["id"];
  t.invite = created.value("invite", "");
  t.tokens.push_back(created["token"]);
  for (std::size_t i = 0; i < levels.size(); ++i) {
    expect_reply(client.request({{"type", "add_bot"}, {"table", t.id}, {"seat", i + 1}, {"level", levels[i]}}), "ack");
  }
  if (start_it) start(t);
  return t;
}

std::vector<seat_tracker> trackers(table_setup& t) {
  std::vector<seat_tracker> out;
  for (auto& p : t.players) out.emplace_back(p.get(), t.id);
  return out;
}

watched_game start_watched(std::uint16_t port, int n, const std::string& game) {
  watched_game g;
  g.table = seat_players(port, n, false, game);
  g.watcher = std::make_unique<ws_client>(port);
  g.watcher->wait_type("welcome");
  expect_reply(g.watcher->request({{"type", "watch"}, {"table", g.table.id}}), "watching");
  start(g.table);
  g.seats = trackers(g.table);
  g.spectator = std::make_unique<seat_tracker>(g.watcher.get(), g.table.id);
  return g;
}

std::vector<seat_tracker*> pointers(std::vector<seat_tracker>& v) {
  std::vector<seat_tracker*> out;
  for (auto& s : v) out.push_back(&s);
  return out;
}


}  // namespace emporium::testing
