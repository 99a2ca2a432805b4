#include "medici/medici.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "emporium/engine/registry.hpp"

namespace emporium::engine::medici {
namespace {

constexpr int kValues[7] = {0, 1, 2, 3, 4, 5, 5};
constexpr const char* kCommodityNames[6] = {"cloth", "fur", "grain", "dye", "spice", "gold"};


// Commodity-track majority payments: first and second (2 players: 10 and 0).
std::vector<int> majority_payments(int players) {
  return players == 2 ? std::vector<int>{10, 0} : std::vector<int>{10, 5};
}


int bag_size(int players) {
  switch (players) {
    case 2:
    case 3: return 18;
    case 4: return 24;
    case 5: return 30;
    default: return 36;
  }
}

// Pays by rank with ties: tied players add up the payments of the places they occupy and split
// them equally, rounded down. Higher score ranks first.
std::vector<int> pay_by_rank(const std::vector<int>& scores, const std::vector<int>& payments) {
  const int n = static_cast<int>(scores.size());
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return scores[a] > scores[b]; });
  std::vector<int> paid(n, 0);
  for (int i = 0; i < n;) {
    int j = i;
    while (j < n && scores[order[j]] == scores[order[i]]) ++j;
    int pot = 0;
    for (int place = i; place < j; ++place) {
      if (place < static_cast<int>(payments.size())) pot += payments[place];
    }
    for (int k = i; k < j; ++k) paid[order[k]] = pot / (j - i);
    i = j;
  }
  return paid;
}

Json tiles_json(const std::vector<Tile>& tiles) {
  Json out = Json::array();
  for (Tile t : tiles) out.push_back(tile_json(t));
  return out;
}

const char* phase_name(Phase p) {
  switch (p) {
    case Phase::draw: return "draw";
    case Phase::auction: return "auction";
    case Phase::over: return "over";
  }
  return "?";
}

}  // namespace

const std::vector<int>& ship_payments(int players) {
  static const std::vector<int> table[7] = {
      {}, {}, {20, 0}, {30, 15, 0}, {30, 20, 10, 0}, {30, 20, 10, 5, 0}, {30, 20, 15, 10, 5, 0}};
  return table[players];
}

int track_bonus(int position) {
  switch (position) {
    case 5: return 5;
    case 6: return 10;
    case 7: return 20;
    default: return 0;
  }
}

Commodity commodity_of(Tile t) { return static_cast<Commodity>(t / 7); }
int value_of(Tile t) { return t == 35 ? 10 : kValues[t % 7]; }
const char* commodity_name(Commodity c) { return kCommodityNames[static_cast<int>(c)]; }
Tile make_tile(Commodity c, int value, int copy) {
  if (c == Commodity::gold) return 35;
  for (int i = 0; i < 7; ++i) {
    if (kValues[i] == value && copy-- == 0) return static_cast<Tile>(static_cast<int>(c) * 7 + i);
  }
  return 255;
}
Json tile_json(Tile t) {
  return {{"commodity", commodity_name(commodity_of(t))}, {"value", value_of(t)}};
}

MediciState::MediciState(int players, Seed seed) {
  d_.players = players;
  d_.capacity = players == 2 ? 7 : 5;
  d_.money.assign(players, players <= 4 ? 40 : 30);
  d_.tracks.assign(players, {0, 0, 0, 0, 0});
  d_.ships.assign(players, {});
  d_.rng = Rng(seed);
  d_.start_player = static_cast<int>(d_.rng.below(players));
  std::vector<Event> ignored;
  start_day(ignored);
}

const GameInfo& MediciState::info() const { return *find_game("medici"); }

int MediciState::free_spaces(int player) const {
  return d_.capacity - static_cast<int>(d_.ships[player].size());
}

int MediciState::lot_limit() const {
  int most_free = 0;
  for (int p = 0; p < d_.players; ++p) most_free = std::max(most_free, free_spaces(p));
  return std::min(kMaxLot, most_free);
}

int MediciState::current_bidder() const {
  if (d_.phase != Phase::auction || d_.bids.size() >= d_.bid_order.size()) return -1;
  return d_.bid_order[d_.bids.size()];
}

std::vector<int> MediciState::to_move() const {
  switch (d_.phase) {
    case Phase::draw: return {d_.active};
    case Phase::auction: return {current_bidder()};
    case Phase::over: return {};
  }
  return {};
}

std::vector<Json> MediciState::game_legal_actions(int player) const {
  std::vector<Json> out;
  if (!is_to_move(player)) return out;
  if (d_.phase == Phase::draw) {
    if (static_cast<int>(d_.lot.size()) < lot_limit() && !d_.bag.empty()) out.push_back({{"type", "draw"}});
    if (!d_.lot.empty()) out.push_back({{"type", "stop"}});
  } else {
    out.push_back({{"type", "pass"}});
    if (free_spaces(player) >= static_cast<int>(d_.lot.size())) {
      for (int amount = d_.high_bid + 1; amount <= d_.money[player]; ++amount) {
        out.push_back({{"type", "bid"}, {"amount", amount}});
      }
    }
  }
  return out;
}

std::optional<Error> MediciState::parse(const Json& action, Parsed* out) const {
  const std::string& type = action["type"].get_ref<const std::string&>();
  if (type == "draw") {
    out->act = Act::draw;
  } else if (type == "stop") {
    out->act = Act::stop;
  } else if (type == "pass") {
    out->act = Act::pass;
  } else if (type == "bid") {
    out->act = Act::bid;
  } else {
    return make_error(errc::malformed_action, "unknown action type '" + type + "'");
  }
  const bool is_bid = out->act == Act::bid;
  for (const auto& [key, value] : action.items()) {
    if (key != "type" && !(is_bid && key == "amount")) {
      return make_error(errc::malformed_action, "unexpected field '" + key + "' in a " + type + " action");
    }
  }
  if (is_bid) {
    if (!action.contains("amount") || !action["amount"].is_number_integer()) {
      return make_error(errc::malformed_action, "a bid needs a whole-number \"amount\"");
    }
    // Read as 64-bit and clamp, so a huge number is a clean refusal, not an overflow.
    const Json& amount = action["amount"];
    out->amount = amount.is_number_unsigned()
                      ? static_cast<long long>(std::min<std::uint64_t>(amount.get<std::uint64_t>(), 1ULL << 40))
                      : amount.get<long long>();
  }
  return std::nullopt;
}

const char* MediciState::check_rules(int player, const Parsed& a, Error* error) const {
  if (a.act == Act::draw || a.act == Act::stop) {
    if (d_.phase != Phase::draw) {
      return refuse(error, errc::illegal_action, [] { return "the auction is under way: bid or pass"; });
    }
    if (a.act == Act::stop && d_.lot.empty()) {
      return refuse(error, "empty_lot", [] { return "draw at least one tile before stopping"; });
    }
    if (a.act == Act::draw && d_.bag.empty()) return refuse(error, errc::illegal_action, [] { return "the bag is empty"; });
    if (a.act == Act::draw && static_cast<int>(d_.lot.size()) >= lot_limit()) {
      return refuse(error, "lot_too_large", [&] {
        return "the lot may not grow past " + std::to_string(lot_limit()) +
               " tiles (the most free spaces any player has, at most 3)";
      });
    }
    return nullptr;
  }
  if (d_.phase != Phase::auction) {
    return refuse(error, errc::illegal_action, [] { return "draw tiles or stop; there is no auction yet"; });
  }
  if (a.act == Act::bid) {
    if (free_spaces(player) < static_cast<int>(d_.lot.size())) {
      return refuse(error, "no_room", [&] {
        return "your ship has " + std::to_string(free_spaces(player)) +
               " free spaces, too few for this lot: you can only pass";
      });
    }
    if (a.amount < 1 || a.amount <= d_.high_bid) {
      return refuse(error, "bid_too_low", [&] { return "a bid must be at least " + std::to_string(d_.high_bid + 1); });
    }
    if (a.amount > d_.money[player]) {
      return refuse(error, "bid_over_budget", [&] {
        return "you cannot bid more than your " + std::to_string(d_.money[player]) + " florins";
      });
    }
  }
  return nullptr;
}

std::vector<Event> MediciState::play(int player, const Parsed& a) {
  std::vector<Event> events;
  if (a.act == Act::draw) {
    d_.lot.push_back(d_.bag.back());
    d_.bag.pop_back();
    events.push_back(Event::public_event({{"type", "draw"},
                                          {"player", player},
                                          {"tile", tile_json(d_.lot.back())},
                                          {"bag_count", d_.bag.size()}}));
    // Drawing ends by itself when no further draw is possible.
    if (static_cast<int>(d_.lot.size()) >= lot_limit() || d_.bag.empty()) start_auction(events);
  } else if (a.act == Act::stop) {
    events.push_back(Event::public_event({{"type", "stop"}, {"player", player}}));
    start_auction(events);
  } else {
    if (a.act == Act::bid) {
      const int amount = static_cast<int>(a.amount);
      d_.bids.push_back({player, amount, false});
      d_.high_bid = amount;
      d_.high_bidder = player;
      events.push_back(Event::public_event({{"type", "bid"}, {"player", player}, {"amount", amount}}));
    } else {
      d_.bids.push_back({player, 0, false});
      events.push_back(Event::public_event({{"type", "pass"}, {"player", player}, {"forced", false}}));
    }
    skip_forced_passes(events);
  }
  return events;
}

void MediciState::start_day(std::vector<Event>& events) {
  std::vector<Tile> all(kTileCount);
  std::iota(all.begin(), all.end(), Tile{0});
  d_.rng.shuffle(all);
  const int removed = kTileCount - bag_size(d_.players);
  d_.removed.assign(all.begin(), all.begin() + removed);
  d_.bag.assign(all.begin() + removed, all.end());
  d_.discarded.clear();
  d_.lot.clear();
  d_.active = d_.start_player;
  d_.phase = Phase::draw;
  events.push_back(Event::public_event({{"type", "day_start"},
                                        {"day", d_.day},
                                        {"start_player", d_.start_player},
                                        {"bag_count", d_.bag.size()},
                                        {"removed_count", d_.removed.size()}}));
}

void MediciState::start_auction(std::vector<Event>& events) {
  d_.phase = Phase::auction;
  d_.bid_order.clear();
  d_.bids.clear();
  d_.high_bid = 0;
  d_.high_bidder = -1;
  for (int k = 1; k <= d_.players; ++k) {
    const int p = (d_.active + k) % d_.players;
    if (in_day(p)) d_.bid_order.push_back(p);
  }
  events.push_back(Event::public_event(
      {{"type", "auction"}, {"lot", tiles_json(d_.lot)}, {"order", d_.bid_order}}));
  skip_forced_passes(events);
}

// A bidder who cannot make any legal bid (no room for the lot, or not enough money to beat the
// high bid) passes automatically: they have no decision to make.
void MediciState::skip_forced_passes(std::vector<Event>& events) {
  while (d_.bids.size() < d_.bid_order.size()) {
    const int p = d_.bid_order[d_.bids.size()];
    const char* reason = nullptr;
    if (free_spaces(p) < static_cast<int>(d_.lot.size())) {
      reason = "no_room";
    } else if (d_.money[p] <= d_.high_bid) {
      reason = "no_money";
    }
    if (!reason) return;
    d_.bids.push_back({p, 0, true});
    events.push_back(Event::public_event({{"type", "pass"}, {"player", p}, {"forced", true}, {"reason", reason}}));
  }
  finish_auction(events);
}

void MediciState::finish_auction(std::vector<Event>& events) {
  if (d_.high_bidder >= 0) {
    const int winner = d_.high_bidder;
    d_.money[winner] -= d_.high_bid;
    d_.ships[winner].insert(d_.ships[winner].end(), d_.lot.begin(), d_.lot.end());
    events.push_back(Event::public_event({{"type", "lot_won"},
                                          {"player", winner},
                                          {"price", d_.high_bid},
                                          {"tiles", tiles_json(d_.lot)},
                                          {"money", d_.money[winner]}}));
  } else {
    d_.discarded.insert(d_.discarded.end(), d_.lot.begin(), d_.lot.end());
    events.push_back(Event::public_event({{"type", "lot_discarded"}, {"tiles", tiles_json(d_.lot)}}));
  }
  d_.lot.clear();
  d_.bid_order.clear();
  d_.bids.clear();
  d_.high_bid = 0;
  d_.high_bidder = -1;

  std::vector<int> still_in;
  for (int p = 0; p < d_.players; ++p) {
    if (in_day(p)) still_in.push_back(p);
  }
  if (still_in.size() == 1) {
    // The last player fills the free spaces from the bag, free of charge; the day ends.
    const int last = still_in.front();
    std::vector<Tile> filled;
    while (in_day(last) && !d_.bag.empty()) {
      filled.push_back(d_.bag.back());
      d_.ships[last].push_back(d_.bag.back());
      d_.bag.pop_back();
    }
    events.push_back(Event::public_event(
        {{"type", "fill"}, {"player", last}, {"tiles", tiles_json(filled)}, {"bag_count", d_.bag.size()}}));
    end_day(events);
    return;
  }
  if (still_in.empty() || d_.bag.empty()) {
    end_day(events);
    return;
  }
  do {
    d_.active = (d_.active + 1) % d_.players;
  } while (!in_day(d_.active));
  d_.phase = Phase::draw;
  events.push_back(Event::public_event({{"type", "turn"}, {"player", d_.active}}));
}

void MediciState::end_day(std::vector<Event>& events) {
  const int n = d_.players;
  std::vector<int> ship_values(n, 0);
  std::vector<std::array<int, kCommodities>> counts(n, {0, 0, 0, 0, 0});
  for (int p = 0; p < n; ++p) {
    for (Tile t : d_.ships[p]) {
      ship_values[p] += value_of(t);
      if (commodity_of(t) != Commodity::gold) ++counts[p][static_cast<int>(commodity_of(t))];
    }
  }
  const std::vector<int> ship_paid = pay_by_rank(ship_values, ship_payments(n));
  std::vector<int> totals = ship_paid;

  Json commodities = Json::array();
  for (int c = 0; c < kCommodities; ++c) {
    std::vector<int> positions(n);
    std::vector<int> bonus(n);
    std::vector<int> moved(n);
    for (int p = 0; p < n; ++p) {
      const int before = d_.tracks[p][c];
      d_.tracks[p][c] = std::min(kTrackTop, before + counts[p][c]);
      moved[p] = d_.tracks[p][c] - before;  // steps actually taken (the track stops at 7)
      positions[p] = d_.tracks[p][c];
      bonus[p] = track_bonus(positions[p]);
    }
    const std::vector<int> majority = pay_by_rank(positions, majority_payments(n));
    for (int p = 0; p < n; ++p) {
      totals[p] += majority[p] + bonus[p];
    }
    commodities.push_back({{"commodity", commodity_name(static_cast<Commodity>(c))},
                           {"moved", moved},
                           {"positions", positions},
                           {"majority", majority},
                           {"bonus", bonus}});
  }
  for (int p = 0; p < n; ++p) d_.money[p] += totals[p];

  Json scoring = {{"day", d_.day},
                  {"ship_values", ship_values},
                  {"ship_payments", ship_paid},
                  {"commodities", commodities},
                  {"totals", totals},
                  {"money", d_.money}};
  d_.scorings.push_back(scoring);
  events.push_back(Event::public_event({{"type", "day_end"}, {"day", d_.day}, {"scoring", scoring}}));

  for (auto& ship : d_.ships) ship.clear();
  d_.lot.clear();
  if (d_.day == kDays) {
    d_.phase = Phase::over;
    events.push_back(Event::public_event({{"type", "game_over"}, {"result", result()}}));
    return;
  }
  ++d_.day;
  const int least = *std::min_element(d_.money.begin(), d_.money.end());
  std::vector<int> poorest;
  for (int p = 0; p < n; ++p) {
    if (d_.money[p] == least) poorest.push_back(p);
  }
  d_.start_player = poorest.size() == 1 ? poorest.front()
                                        : poorest[static_cast<std::size_t>(d_.rng.below(poorest.size()))];
  start_day(events);
}

Json MediciState::result() const {
  if (d_.phase != Phase::over) return nullptr;
  const int best = *std::max_element(d_.money.begin(), d_.money.end());
  Json ranking = Json::array();
  std::vector<int> order(d_.players);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return d_.money[a] > d_.money[b]; });
  Json winners = Json::array();
  for (int p : order) {
    const int rank = 1 + static_cast<int>(std::count_if(d_.money.begin(), d_.money.end(),
                                                        [&](int m) { return m > d_.money[p]; }));
    ranking.push_back({{"player", p}, {"rank", rank}, {"money", d_.money[p]}});
    if (d_.money[p] == best) winners.push_back(p);
  }
  return {{"ranking", ranking}, {"winners", winners}};
}

Json MediciState::auction_json() const {
  if (d_.phase != Phase::auction) return nullptr;
  Json bids = Json::array();
  for (const auto& b : d_.bids) {
    if (b.amount > 0) {
      bids.push_back({{"player", b.player}, {"amount", b.amount}});
    } else {
      bids.push_back({{"player", b.player}, {"pass", true}, {"forced", b.forced}});
    }
  }
  const int bidder = current_bidder();
  return {{"order", d_.bid_order},
          {"bids", bids},
          {"high_bid", d_.high_bid},
          {"high_bidder", d_.high_bidder < 0 ? Json(nullptr) : Json(d_.high_bidder)},
          {"bidder", bidder < 0 ? Json(nullptr) : Json(bidder)},
          {"min_bid", d_.high_bid + 1}};
}

Json MediciState::view(const Viewer& viewer) const {
  Json seats = Json::array();
  for (int p = 0; p < d_.players; ++p) {
    Json tracks = Json::object();
    for (int c = 0; c < kCommodities; ++c) tracks[commodity_name(static_cast<Commodity>(c))] = d_.tracks[p][c];
    seats.push_back({{"money", d_.money[p]},
                     {"ship", tiles_json(d_.ships[p])},
                     {"free", free_spaces(p)},
                     {"in_day", in_day(p)},
                     {"tracks", tracks}});
  }
  Json v = {{"game", "medici"},
            {"players", d_.players},
            {"version", d_.version},
            {"day", d_.day},
            {"days", kDays},
            {"phase", phase_name(d_.phase)},
            {"start_player", d_.start_player},
            {"active", d_.active},
            {"to_move", to_move()},
            {"capacity", d_.capacity},
            {"bag_count", d_.bag.size()},
            {"removed_count", d_.removed.size()},
            {"discarded", tiles_json(d_.discarded)},
            {"lot", tiles_json(d_.lot)},
            {"lot_limit", d_.phase == Phase::over ? 0 : lot_limit()},
            {"auction", auction_json()},
            {"seats", seats},
            {"scorings", d_.scorings},
            {"result", result()}};
  if (viewer.kind == Viewer::Kind::full) {
    Json bag = Json::array();  // in draw order: the next tile first
    for (auto it = d_.bag.rbegin(); it != d_.bag.rend(); ++it) bag.push_back(tile_json(*it));
    v["bag"] = bag;
    v["removed"] = tiles_json(d_.removed);
  }
  return v;
}

void MediciState::rig_bag(const std::vector<Tile>& draws_in_order) {
  std::vector<bool> used(kTileCount, false);
  for (const auto& ship : d_.ships) for (Tile t : ship) used[t] = true;
  for (Tile t : d_.lot) used[t] = true;
  for (Tile t : d_.discarded) used[t] = true;
  d_.bag.assign(draws_in_order.rbegin(), draws_in_order.rend());
  for (Tile t : d_.bag) used[t] = true;
  d_.removed.clear();
  for (int t = 0; t < kTileCount; ++t) {
    if (!used[t]) d_.removed.push_back(static_cast<Tile>(t));
  }
}

GameInfo game_info() {
  GameInfo info;
  info.id = "medici";
  info.display_name = "Medici";
  info.min_players = 2;
  info.max_players = 6;
  info.create = [](const Json&, int players, Seed seed) -> std::unique_ptr<State> {
    return std::make_unique<MediciState>(players, seed);
  };
  return info;
}

}  // namespace emporium::engine::medici
