// Rendering of server frames: one JSON object per frame. Strings that are not valid UTF-8 are written with
// U+FFFD in place of the bad bytes instead of throwing.
#include <string>
#include <string_view>

#include "emporium/protocol/protocol.hpp"

namespace emporium::protocol {
namespace {

// {"type": type} plus "re" when there is a request id to echo.
Json frame(const char* type, const Json& re) {
  Json j = Json::object();
  j["type"] = type;
  if (!re.is_null()) j["re"] = re;
  return j;
}

std::string dump(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

void add_clock(Json& j, const Json& clock) {
  if (!clock.is_null()) j["clock"] = clock;
}

}  // namespace

Json table_json(const TableInfo& table) {
  Json seats = Json::array();
  for (const SeatInfo& s : table.seats) {
    Json seat{{"seat", s.seat}, {"name", s.name ? Json(*s.name) : Json(nullptr)}, {"connected", s.connected}};
    if (s.bot) seat["bot"] = *s.bot;
    if (s.stand_in) seat["stand_in"] = *s.stand_in;
    if (s.away_s) seat["away_s"] = *s.away_s;
    if (s.vacation_until) seat["vacation_until"] = *s.vacation_until;
    if (s.reserved) seat["reserved"] = true;
    if (s.rating) {
      seat["rating"] = {{"value", s.rating->value}, {"provisional", s.rating->provisional}};
      if (s.rating->bot) seat["rating"]["bot"] = true;
    }
    seats.push_back(std::move(seat));
  }
  Json j{{"id", table.id},
         {"game", table.game},
         {"players", table.players},
         {"options", table.options},
         {"private", table.is_private},
         {"rated", table.rated},
         {"undo", table.undo},
         {"state", table.state},
         {"seats", std::move(seats)},
         {"spectators", table.spectators},
         {"creator_seat", table.creator_seat}};
  if (table.clock) j["clock"] = table.clock->to_json();
  if (table.rematch) j["rematch"] = rematch_json(*table.rematch);
  if (table.rematch_of) j["rematch_of"] = *table.rematch_of;
  if (table.commitment) j["commitment"] = *table.commitment;
  if (table.seed) j["seed"] = *table.seed;
  if (table.salt) j["salt"] = *table.salt;
  if (!table.spectators_may_chat) j["spectators_may_chat"] = false;
  if (table.friends_only) j["friends_only"] = true;
  if (!table.rating_changes.empty()) {
    Json changes = Json::array();
    for (const auto& c : table.rating_changes) {
      changes.push_back({{"seat", c.seat}, {"before", c.before}, {"after", c.after}, {"delta", c.after - c.before},
                         {"provisional", c.provisional}});
    }
    j["rating_changes"] = std::move(changes);
  }
  return j;
}

std::optional<TableInfo> table_info_from_json(const Json& j) {
  // Every field table_json writes, of its type; a missing or ill-typed one makes it not a table.
  try {
    TableInfo t;
    t.id = j.at("id").get<std::string>();
    t.game = j.at("game").get<std::string>();
    t.players = j.at("players").get<int>();
    t.options = j.at("options");
    t.is_private = j.at("private").get<bool>();
    t.state = j.at("state").get<std::string>();
    t.spectators = j.at("spectators").get<int>();
    t.spectators_may_chat = j.value("spectators_may_chat", true);
    t.friends_only = j.value("friends_only", false);
    t.creator_seat = j.at("creator_seat").get<int>();
    for (const auto& s : j.at("seats")) {
      SeatInfo seat;
      seat.seat = s.at("seat").get<int>();
      if (!s.at("name").is_null()) seat.name = s.at("name").get<std::string>();
      seat.connected = s.at("connected").get<bool>();
      if (s.contains("bot")) seat.bot = s.at("bot").get<std::string>();
      if (s.contains("stand_in")) seat.stand_in = s.at("stand_in").get<std::string>();
      if (s.contains("away_s")) seat.away_s = s.at("away_s").get<long long>();
      if (s.contains("vacation_until")) seat.vacation_until = s.at("vacation_until").get<long long>();
      seat.reserved = s.value("reserved", false);
      if (s.contains("rating")) {
        const auto& r = s.at("rating");
        seat.rating = SeatRating{r.at("value").get<int>(), r.at("provisional").get<bool>(), r.value("bot", false)};
      }
      t.seats.push_back(std::move(seat));
    }
    if (j.contains("clock")) t.clock = ClockConfig::from_json(j["clock"]);
    if (j.contains("rematch")) t.rematch = rematch_from_json(j["rematch"]);
    if (j.contains("rematch_of")) t.rematch_of = j["rematch_of"].get<std::string>();
    if (j.contains("commitment")) t.commitment = j["commitment"].get<std::string>();
    if (j.contains("seed")) t.seed = j["seed"].get<std::string>();
    if (j.contains("salt")) t.salt = j["salt"].get<std::string>();
    t.rated = j.value("rated", false);
    t.undo = j.value("undo", true);
    if (j.contains("rating_changes")) {
      for (const auto& c : j.at("rating_changes")) {
        t.rating_changes.push_back({c.at("seat").get<int>(), c.at("before").get<int>(), c.at("after").get<int>(),
                                    c.at("provisional").get<bool>()});
      }
    }
    return t;
  } catch (const Json::exception&) {
    return std::nullopt;
  }
}

Json rematch_json(const RematchOffer& offer) {
  Json j{{"table", offer.table}, {"by", offer.by}};
  if (offer.invite) j["invite"] = *offer.invite;
  return j;
}

std::optional<RematchOffer> rematch_from_json(const Json& j) {
  if (j.is_null()) return std::nullopt;
  RematchOffer offer{j.at("table").get<std::string>(), j.at("by").get<int>(), std::nullopt};
  if (j.contains("invite")) offer.invite = j.at("invite").get<std::string>();
  return offer;
}

std::string render_welcome(const Json& games, std::optional<long long> absent_after_s, std::string_view node,
                           std::optional<long long> forsaken_after_s) {
  Json j = frame("welcome", nullptr);
  j["protocol"] = kVersion;
  j["server"] = "emporium";
  j["games"] = games;
  if (absent_after_s) j["absent_after_s"] = *absent_after_s;
  if (forsaken_after_s && *forsaken_after_s > 0) j["forsaken_after_s"] = *forsaken_after_s;
  if (!node.empty()) j["node"] = std::string(node);
  return dump(j);
}

std::string render_hello(const Json& re, std::string_view name, const Json& account) {
  Json j = frame("hello", re);
  j["name"] = std::string(name);
  j["account"] = account;
  j["protocol"] = kVersion;
  return dump(j);
}

std::string render_lobby(const Json& re, const std::vector<TableInfo>& tables) {
  Json list = Json::array();
  for (const TableInfo& t : tables) list.push_back(table_json(t));
  Json j = frame("lobby", re);
  j["tables"] = std::move(list);
  return dump(j);
}

std::string render_lobby_changed(const TableInfo& table) {
  Json j = frame("lobby_changed", nullptr);
  j["table"] = table_json(table);
  return dump(j);
}

std::string render_lobby_removed(std::string_view table) {
  Json j = frame("lobby_removed", nullptr);
  j["table"] = table;
  return dump(j);
}

std::string render_table(const Json& re, const TableInfo& table, const Json& clock) {
  Json j = frame("table", re);
  j["table"] = table_json(table);
  add_clock(j, clock);
  return dump(j);
}

std::string render_seated(const Json& re, const TableInfo& table, int seat, std::string_view token,
                          const std::optional<std::string>& invite, bool reclaimed, const Json& clock) {
  Json j = frame("seated", re);
  j["table"] = table_json(table);
  j["seat"] = seat;
  if (!token.empty()) j["token"] = std::string(token);  // none when resumed by account: only its hash is kept
  if (invite) j["invite"] = *invite;
  if (reclaimed) j["reclaimed"] = true;
  add_clock(j, clock);
  return dump(j);
}

std::string render_watching(const Json& re, const TableInfo& table, const Json& clock) {
  Json j = frame("watching", re);
  j["table"] = table_json(table);
  add_clock(j, clock);
  return dump(j);
}

std::string render_left(const Json& re, std::string_view table) {
  Json j = frame("left", re);
  j["table"] = std::string(table);
  return dump(j);
}

std::string render_snapshot(const Json& re, std::string_view table, std::uint64_t version, const Json& seat,
                            const Json& view, const Json& legal, const Json& clock, const Json& shuffle) {
  Json j = frame("snapshot", re);
  j["table"] = std::string(table);
  j["version"] = version;
  j["seat"] = seat;
  j["view"] = view;
  j["legal"] = legal;
  add_clock(j, clock);
  if (shuffle.is_object()) j.update(shuffle);
  return dump(j);
}

std::string render_preview(const Json& re, std::string_view table, std::uint64_t version, bool final,
                           const Json& events, const Json& view, const Json& legal) {
  Json j = frame("preview", re);
  j["table"] = std::string(table);
  j["version"] = version;
  j["final"] = final;
  j["events"] = events;
  if (!final) {
    j["view"] = view;
    j["legal"] = legal;
  }
  return dump(j);
}

std::string render_events(std::string_view table, std::uint64_t version, std::string_view events_json,
                          std::string_view legal_json, const Json& clock, const Json& shuffle) {
  Json head = frame("events", nullptr);
  head["table"] = std::string(table);
  head["version"] = version;
  add_clock(head, clock);
  if (shuffle.is_object()) head.update(shuffle);
  std::string out = dump(head);
  out.pop_back();  // its closing brace: the two arrays go in after the head's fields (there is always "type")
  out.reserve(out.size() + events_json.size() + legal_json.size() + 20);
  out.append(",\"events\":").append(events_json).append(",\"legal\":").append(legal_json).push_back('}');
  return out;
}

std::string render_ack(const Json& re, std::uint64_t version) {
  Json j = frame("ack", re);
  j["version"] = version;
  return dump(j);
}

Json chat_line_json(const ChatLine& line) {
  return Json{{"id", line.id}, {"from", line.from}, {"seat", line.seat}, {"channel", line.channel},
              {"text", line.text}, {"at", line.at}};
}

std::string render_chat(std::string_view table, const ChatLine& line) {
  Json j = frame("chat", nullptr);
  j["table"] = std::string(table);
  j.update(chat_line_json(line));
  return dump(j);
}

std::string render_chat_history(std::string_view table, const std::vector<ChatLine>& lines) {
  Json j = frame("chat_history", nullptr);
  j["table"] = std::string(table);
  Json list = Json::array();
  for (const auto& line : lines) list.push_back(chat_line_json(line));
  j["lines"] = std::move(list);
  return dump(j);
}

std::string render_reported(const Json& re, std::string_view report) {
  Json j = frame("reported", re);
  j["report"] = std::string(report);
  return dump(j);
}

std::string render_pong(const Json& re) { return dump(frame("pong", re)); }

std::string render_my_games(const Json& re, const std::vector<MyGame>& games, const std::vector<std::string>& unknown) {
  Json list = Json::array();
  for (const MyGame& g : games) {
    // Who sits where, never more: the entry must not carry anything of a view.
    Json seats = Json::array();
    for (const SeatInfo& s : g.seats) {
      Json seat{{"seat", s.seat}, {"name", s.name ? Json(*s.name) : Json(nullptr)}};
      if (s.bot) seat["bot"] = *s.bot;
      seats.push_back(std::move(seat));
    }
    Json entry{{"token", g.token.empty() ? Json(nullptr) : Json(g.token)},         {"table", g.table},         {"game", g.game},
               {"state", g.state},         {"seat", g.seat},           {"seats", std::move(seats)},
               {"your_turn", g.your_turn}, {"result", g.result},       {"updated", g.updated}};
    if (g.invite) entry["invite"] = *g.invite;
    entry["to_move"] = g.to_move;
    entry["rated"] = g.rated;
    entry["clock"] = g.clock ? Json{{"seat", g.clock->seat}, {"left_ms", g.clock->left_ms}} : Json(nullptr);
    if (g.clock && g.clock->paused) entry["clock"]["paused"] = true;
    list.push_back(std::move(entry));
  }
  Json j = frame("my_games", re);
  j["games"] = std::move(list);
  j["unknown"] = unknown;
  return dump(j);
}

std::string render_error(const Json& re, std::string_view code, std::string_view message) {
  Json j = frame("error", re);
  j["code"] = std::string(code);
  j["message"] = std::string(message);
  return dump(j);
}

std::string render_step_error(const Json& re, std::string_view code, std::string_view message, std::size_t step) {
  Json j = frame("error", re);
  j["code"] = std::string(code);
  j["message"] = std::string(message);
  j["step"] = step;
  return dump(j);
}

Json presence_json(const Presence& p) {
  Json j{{"status", p.status}};
  if (p.table) j["table"] = *p.table;
  if (p.game) j["game"] = *p.game;
  if (p.last_seen) j["last_seen"] = *p.last_seen;
  return j;
}

namespace {
Json person_json(const Person& p) {
  Json j{{"name", p.name}, {"relation", p.relation}};
  if (p.presence) j["presence"] = presence_json(*p.presence);
  if (p.at) j[p.relation == "friend" ? "since" : "at"] = *p.at;
  return j;
}
Json invitation_json(const Invitation& i) {
  Json j{{"table", i.table}, {"game", i.game}, {"from", i.from}, {"players", i.players}, {"at", i.at}};
  if (i.invite) j["invite"] = *i.invite;
  return j;
}
}  // namespace

std::string render_friends(const Json& re, const std::vector<Person>& people, const std::vector<Invitation>& invitations) {
  Json j = frame("friends", re);
  Json lists{{"friend", Json::array()}, {"incoming", Json::array()}, {"outgoing", Json::array()},
             {"blocked", Json::array()}};
  for (const Person& p : people) {
    auto list = lists.find(p.relation);
    if (list == lists.end()) continue;
    Json entry = person_json(p);
    entry.erase("relation");
    list->push_back(std::move(entry));
  }
  j["friends"] = std::move(lists["friend"]);
  j["incoming"] = std::move(lists["incoming"]);
  j["outgoing"] = std::move(lists["outgoing"]);
  j["blocked"] = std::move(lists["blocked"]);
  Json list = Json::array();
  for (const Invitation& i : invitations) list.push_back(invitation_json(i));
  j["invitations"] = std::move(list);
  return dump(j);
}

std::string render_person(const Json& re, const Person& person) {
  Json j = frame("friend", re);
  j.update(person_json(person));
  return dump(j);
}

std::string render_invitation(const Invitation& invitation) {
  Json j = frame("invitation", nullptr);
  j.update(invitation_json(invitation));
  return dump(j);
}

std::string render_invited(const Json& re, std::string_view table, std::string_view name) {
  Json j = frame("invited", re);
  j["table"] = std::string(table);
  j["name"] = std::string(name);
  return dump(j);
}

std::string render_invitation_declined(const Json& re, std::string_view table, std::string_view name) {
  Json j = frame("invitation_declined", re);
  j["table"] = std::string(table);
  if (!name.empty()) j["name"] = std::string(name);
  return dump(j);
}

}  // namespace emporium::protocol
