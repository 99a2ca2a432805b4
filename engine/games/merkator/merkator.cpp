#include "merkator/merkator.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "emporium/engine/registry.hpp"

namespace emporium::engine::merkator {
namespace {

constexpr int kTime = -2;  // Parsed::give for time counters

bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

void erase_one(std::vector<int>& v, int x) {
  const auto it = std::find(v.begin(), v.end(), x);
  if (it != v.end()) v.erase(it);
}

struct ActionShape {
  const char* type;
  std::vector<const char*> fields;
};

// Indexed like MerkatorState::Act.
const ActionShape kShapes[] = {
    {"supply", {"good"}},      {"sell", {"contract"}},      {"buy", {"card"}},        {"end_investment", {}},
    {"travel", {"location"}},  {"take", {"good", "count"}}, {"keep_letter", {}},      {"next_letter", {}},
    {"discard", {"good"}},     {"trade", {"give", "good"}}, {"fulfil", {"contract"}}, {"done", {}},
    {"join", {}},              {"decline", {}},
};

}  // namespace

const char* phase_name(Phase p) {
  switch (p) {
    case Phase::investment: return "investment";
    case Phase::travel: return "travel";
    case Phase::take: return "take";
    case Phase::letter: return "letter";
    case Phase::loss: return "loss";
    case Phase::contracts: return "contracts";
    case Phase::joining: return "joining";
    case Phase::over: return "over";
  }
  return "?";
}

// ---- Setup --------------------------------------------------------------------------------------

MerkatorState::MerkatorState(std::shared_ptr<const Catalog> catalog, int players, Seed seed) {
  d_.catalog = std::move(catalog);
  const Catalog& c = *d_.catalog;
  const Setup& s = c.setup;
  d_.players = players;
  d_.rng = Rng(seed);
  d_.start_player = static_cast<int>(d_.rng.below(static_cast<std::uint64_t>(players)));

  // Time chart: the letters shuffled, laid face down row by row from the top; fewer players leave top rows empty.
  std::vector<int> letters(c.time_chart.size());
  std::iota(letters.begin(), letters.end(), 0);
  d_.rng.shuffle(letters);
  d_.chart.assign(static_cast<std::size_t>(s.chart_rows), {});
  std::size_t next = 0;
  for (int r = s.empty_top_rows[players]; r < s.chart_rows; ++r) {
    for (int i = 0; i < s.chart_row_length; ++i) d_.chart[r].push_back({letters[next++], false});
  }

  // Contract piles, one per value, shuffled; the Peace alone on its pile.
  d_.piles.assign(c.values.size(), {});
  for (std::size_t i = 0; i < c.contracts.size(); ++i) d_.piles[c.value_index(c.contracts[i].value)].push_back(static_cast<int>(i));
  for (auto& pile : d_.piles) d_.rng.shuffle(pile);

  d_.seats.assign(players, Seat{});
  for (int p = 0; p < players; ++p) {
    Seat& seat = d_.seats[p];
    seat.goods.assign(c.goods.size(), 0);
    seat.supply = s.supply_tile;
    seat.coins = s.coins;
    for (int v : s.contract_values) {
      auto& pile = d_.piles[c.value_index(v)];
      seat.contracts.push_back(pile.back());
      pile.pop_back();
    }
  }
  const int right = (d_.start_player + players - 1) % players;
  for (int p = 0; p < players; ++p) {
    d_.seats[p].time = p == d_.start_player ? s.time_start_player : p == right ? s.time_right_of_start : s.time_others;
  }

  // Bonus cards: each player one of each listed cost (random), the rest a shuffled pile with some face up.
  std::vector<int> bonus(c.bonus_cards.size());
  std::iota(bonus.begin(), bonus.end(), 0);
  d_.rng.shuffle(bonus);
  for (int p = 0; p < players; ++p) {
    for (const auto& [cost, n] : s.bonus_by_cost) {
      for (int k = 0; k < n; ++k) {
        const auto it = std::find_if(bonus.begin(), bonus.end(), [&, cost = cost](int b) { return c.bonus_cards[b].cost == cost; });
        d_.seats[p].bonus.push_back(*it);
        bonus.erase(it);
      }
    }
  }
  d_.bonus_pile = bonus;
  for (int i = 0; i < s.face_up_bonus && !d_.bonus_pile.empty(); ++i) {
    d_.bonus_display.push_back(d_.bonus_pile.back());
    d_.bonus_pile.pop_back();
  }
  d_.building_pile.resize(c.buildings.size());
  std::iota(d_.building_pile.begin(), d_.building_pile.end(), 0);
  d_.rng.shuffle(d_.building_pile);
  for (int i = 0; i < s.face_up_buildings && !d_.building_pile.empty(); ++i) {
    d_.building_display.push_back(d_.building_pile.back());
    d_.building_pile.pop_back();
  }

  d_.cubes.assign(c.locations.size(), 0);
  for (std::size_t l = 0; l < c.locations.size(); ++l) {
    if (c.locations[l].major) d_.cubes[l] = s.cubes_on_each_major;
  }
  d_.loss_need.assign(players, 0);
  d_.scoring = nullptr;
  std::vector<Event> ignored;
  start_turn(d_.start_player, ignored);
}

const GameInfo& MerkatorState::info() const { return *find_game("merkator"); }

std::vector<int> MerkatorState::to_move() const {
  if (d_.phase == Phase::over) return {};
  return {d_.decider};
}

int MerkatorState::join_cost(int location) const {
  return catalog().locations[location].major ? catalog().join_cost_major : catalog().join_cost_minor;
}

int MerkatorState::chart_remaining() const {
  int n = 0;
  for (const auto& row : d_.chart) n += static_cast<int>(row.size());
  return n;
}

int MerkatorState::column_total(int player, int column) const {
  int n = 0;
  for (int g : catalog().columns[column].goods) n += d_.seats[player].goods[g];
  return n;
}

int MerkatorState::column_kinds(int player, int column) const {
  int n = 0;
  for (int g : catalog().columns[column].goods) n += d_.seats[player].goods[g] > 0;
  return n;
}

bool MerkatorState::has_eligible_contract(int player) const {
  const Seat& seat = d_.seats[player];
  for (int k : seat.contracts) {
    if (catalog().contracts[k].destination == d_.location && d_.location >= 0 && !contains(seat.fulfilled, k)) return true;
  }
  return false;
}

namespace {

// Whether goods `have` and `time` counters can pay `contract` with 4-for-1 trades: every missing good costs one
// trade, paid from 4 spare goods of one kind (beyond what the contract needs) or 4 time counters.
bool feasible(const Catalog& c, const std::vector<int>& have, int time, int contract) {
  int deficit = 0, trades = time / kTradeRate;
  std::vector<int> need(have.size(), 0);
  for (const auto& [g, q] : c.contracts[contract].goods) need[g] += q;
  for (std::size_t g = 0; g < need.size(); ++g) {
    if (have[g] < need[g]) {
      deficit += need[g] - have[g];
    } else {
      trades += (have[g] - need[g]) / kTradeRate;
    }
  }
  return trades >= deficit;
}

}  // namespace

bool MerkatorState::fulfillable_with_trades(int player, int contract) const {
  return feasible(catalog(), d_.seats[player].goods, d_.seats[player].time, contract);
}

// ---- Parsing and the rules' verdict -------------------------------------------------------------

std::optional<Error> MerkatorState::parse(const Json& action, Parsed* out) const {
  const std::string& type = action["type"].get_ref<const std::string&>();
  int index = -1;
  for (std::size_t i = 0; i < std::size(kShapes); ++i) {
    if (type == kShapes[i].type) index = static_cast<int>(i);
  }
  if (index < 0) return make_error(errc::malformed_action, "unknown action type '" + type + "'");
  const ActionShape& shape = kShapes[index];
  for (const auto& [key, value] : action.items()) {
    if (key != "type" && std::none_of(shape.fields.begin(), shape.fields.end(), [&key = key](const char* f) { return key == f; })) {
      return make_error(errc::malformed_action, "unexpected field '" + key + "' in a " + type + " action");
    }
  }
  for (const char* f : shape.fields) {
    if (!action.contains(f)) return make_error(errc::malformed_action, "a " + type + " action needs \"" + f + "\"");
  }
  out->act = static_cast<Act>(index);
  const Catalog& c = catalog();
  auto name = [&](const char* f) -> std::optional<std::string> {
    if (!action[f].is_string()) return std::nullopt;
    return action[f].get<std::string>();
  };
  auto need_string = [&](const char* f) {
    return make_error(errc::malformed_action, std::string("\"") + f + "\" must be a string");
  };
  if (action.contains("good")) {
    const auto s = name("good");
    if (!s) return need_string("good");
    const auto g = c.good_index(*s);
    if (!g) return make_error(errc::malformed_action, "there is no good called '" + *s + "'");
    out->good = *g;
  }
  if (action.contains("give")) {
    const auto s = name("give");
    if (!s) return need_string("give");
    if (*s == "time") {
      out->give = kTime;
    } else {
      const auto g = c.good_index(*s);
      if (!g) return make_error(errc::malformed_action, "trade gives a good or \"time\", not '" + *s + "'");
      out->give = *g;
    }
  }
  if (action.contains("contract")) {
    const auto s = name("contract");
    if (!s) return need_string("contract");
    const auto k = c.contract_index(*s);
    if (!k) return make_error(errc::malformed_action, "there is no contract called '" + *s + "'");
    out->id = *k;
  }
  if (action.contains("card")) {
    const auto s = name("card");
    if (!s) return need_string("card");
    if (const auto b = c.bonus_index(*s)) {
      out->id = *b;
    } else if (const auto k = c.building_index(*s)) {
      out->id = static_cast<int>(c.bonus_cards.size()) + *k;
    } else {
      return make_error(errc::malformed_action, "there is no bonus card or building called '" + *s + "'");
    }
  }
  if (action.contains("location")) {
    const auto s = name("location");
    if (!s) return need_string("location");
    const auto l = c.location_index(*s);
    if (!l) return make_error(errc::malformed_action, "there is no location called '" + *s + "'");
    out->id = *l;
  }
  if (action.contains("count")) {
    const Json& v = action["count"];
    if (!v.is_number_integer()) return make_error(errc::malformed_action, "\"count\" must be a whole number");
    out->count = v.is_number_unsigned() ? static_cast<long long>(std::min<std::uint64_t>(v.get<std::uint64_t>(), 1ULL << 40))
                                        : v.get<long long>();
  }
  return std::nullopt;
}

Json MerkatorState::action_json(const Parsed& a) const {
  const Catalog& c = catalog();
  Json j = {{"type", kShapes[static_cast<int>(a.act)].type}};
  switch (a.act) {
    case Act::supply:
    case Act::discard: j["good"] = c.goods[a.good].id; break;
    case Act::sell:
    case Act::fulfil: j["contract"] = c.contracts[a.id].id; break;
    case Act::buy: {
      const int nb = static_cast<int>(c.bonus_cards.size());
      j["card"] = a.id < nb ? c.bonus_cards[a.id].id : c.buildings[a.id - nb].id;
      break;
    }
    case Act::travel: j["location"] = c.locations[a.id].id; break;
    case Act::take:
      j["good"] = c.goods[a.good].id;
      j["count"] = a.count;
      break;
    case Act::trade:
      j["give"] = a.give == kTime ? std::string("time") : c.goods[a.give].id;
      j["good"] = c.goods[a.good].id;
      break;
    default: break;
  }
  return j;
}

const char* MerkatorState::check_rules(int player, const Parsed& a, Error* error) const {
  const Catalog& c = catalog();
  const Seat& seat = d_.seats[player];
  auto wrong_phase = [&](const char* what) {
    return refuse(error, errc::illegal_action, [&] {
      return std::string(what) + " (now: " + phase_name(d_.phase) + ")";
    });
  };
  switch (a.act) {
    case Act::supply:
      if (seat.supply[c.goods[a.good].colour] == 0) {
        return refuse(error, "supply_empty", [&] {
          return "your supply tile has no " + c.colours[c.goods[a.good].colour].id + " cube left";
        });
      }
      return nullptr;
    case Act::sell:
      if (d_.phase != Phase::investment) return wrong_phase("contracts are sold during investment");
      if (!contains(seat.contracts, a.id)) return refuse(error, "not_held", [&] { return "you do not hold " + c.contracts[a.id].id; });
      if (seat.contracts.size() == 1) return refuse(error, "last_contract", [] { return "you may never sell your last contract"; });
      return nullptr;
    case Act::buy: {
      if (d_.phase != Phase::investment) return wrong_phase("cards are bought during investment");
      const int nb = static_cast<int>(c.bonus_cards.size());
      const bool is_bonus = a.id < nb;
      const auto& display = is_bonus ? d_.bonus_display : d_.building_display;
      const int card = is_bonus ? a.id : a.id - nb;
      if (!contains(display, card)) return refuse(error, "not_on_display", [] { return "that card is not face up"; });
      const int cost = is_bonus ? c.bonus_cards[card].cost : c.buildings[card].cost;
      if (seat.coins < cost) {
        return refuse(error, "not_enough_coins", [&] {
          return "it costs " + std::to_string(cost) + " coins; you have " + std::to_string(seat.coins);
        });
      }
      return nullptr;
    }
    case Act::end_investment:
      if (d_.phase != Phase::investment) return wrong_phase("end_investment ends the investment step");
      if (!d_.last_round && static_cast<int>(seat.contracts.size()) > c.setup.max_contracts) {
        return refuse(error, "must_sell", [&] {
          return "you hold " + std::to_string(seat.contracts.size()) + " contracts: sell down to " +
                 std::to_string(c.setup.max_contracts);
        });
      }
      return nullptr;
    case Act::travel: {
      if (d_.phase != Phase::travel) return wrong_phase("travel follows investment");
      const int cost = std::max(0, -c.locations[a.id].time);
      if (seat.time < cost) {
        return refuse(error, "not_enough_time", [&] {
          return c.locations[a.id].name + " costs " + std::to_string(cost) + " time; you have " + std::to_string(seat.time);
        });
      }
      return nullptr;
    }
    case Act::take: {
      if (d_.phase != Phase::take) return wrong_phase("take splits the cubes of a trip");
      const int colour = c.locations[d_.location].colour;
      if (c.goods[a.good].colour != colour) {
        return refuse(error, "bad_split", [&] { return "the cubes here are " + c.colours[colour].id; });
      }
      const long long lo = 1, hi = d_.take_cubes == 1 ? 1 : d_.take_cubes - 1;
      if (a.count < lo || a.count > hi) {
        return refuse(error, "bad_split", [&] {
          return "of " + std::to_string(d_.take_cubes) + " cubes, " + std::to_string(lo) + " to " + std::to_string(hi) +
                 " may become one good (at least one of each when there are two or more)";
        });
      }
      return nullptr;
    }
    case Act::keep_letter:
    case Act::next_letter:
      if (d_.phase != Phase::letter) return wrong_phase("no single letter is waiting for a choice");
      return nullptr;
    case Act::discard:
      if (d_.phase != Phase::loss) return wrong_phase("goods are discarded in a goods loss");
      if (c.goods[a.good].column != d_.loss_column || seat.goods[a.good] == 0) {
        return refuse(error, "no_choice", [&] {
          return "return a good you hold from column " + c.columns[d_.loss_column].id;
        });
      }
      return nullptr;
    case Act::trade: {
      if (d_.phase != Phase::contracts) return wrong_phase("trades are made only to fulfil a contract");
      if (a.give == a.good) return refuse(error, "trade_not_needed", [] { return "a trade gets a different good"; });
      const int have = a.give == kTime ? seat.time : seat.goods[a.give];
      if (have < kTradeRate) {
        return refuse(error, "not_enough_to_trade", [&] {
          return std::string("a trade gives 4 ") + (a.give == kTime ? "time counters" : "goods of one kind");
        });
      }
      // Allowed only towards a contract fulfillable here this turn that lacks the good, and still fulfillable after.
      for (int k : seat.contracts) {
        const Contract& ct = c.contracts[k];
        if (ct.destination != d_.location || contains(seat.fulfilled, k)) continue;
        int need = 0;
        for (const auto& [g, q] : ct.goods) need += g == a.good ? q : 0;
        if (need <= seat.goods[a.good]) continue;
        std::vector<int> after = seat.goods;
        int time = seat.time;
        (a.give == kTime ? time : after[a.give]) -= kTradeRate;
        ++after[a.good];
        if (feasible(c, after, time, k)) return nullptr;
      }
      return refuse(error, "trade_not_needed", [&] {
        return "no contract you can fulfil here lacks " + c.goods[a.good].id + " (or the trade would leave it unfulfillable)";
      });
    }
    case Act::fulfil: {
      if (d_.phase != Phase::contracts) return wrong_phase("contracts are fulfilled in the contracts step");
      if (!contains(seat.contracts, a.id)) return refuse(error, "not_held", [&] { return "you do not hold " + c.contracts[a.id].id; });
      const Contract& ct = c.contracts[a.id];
      if (ct.destination != d_.location) {
        return refuse(error, "wrong_destination", [&] { return "that contract is not for " + c.locations[d_.location].name; });
      }
      if (contains(seat.fulfilled, a.id)) {
        return refuse(error, "already_fulfilled", [] { return "each contract is fulfilled at most once per turn"; });
      }
      for (const auto& [g, q] : ct.goods) {
        if (seat.goods[g] < q) {
          return refuse(error, "missing_goods", [&, g = g, q = q] {
            return "it needs " + std::to_string(q) + " " + c.goods[g].id + "; you have " + std::to_string(seat.goods[g]);
          });
        }
      }
      return nullptr;
    }
    case Act::done:
      if (d_.phase != Phase::contracts) return wrong_phase("done ends the contracts step");
      return nullptr;
    case Act::join:
    case Act::decline:
      if (d_.phase != Phase::joining) return wrong_phase("nobody is being asked to join");
      return nullptr;
  }
  return nullptr;
}

std::vector<Json> MerkatorState::game_legal_actions(int player) const {
  std::vector<Json> out;
  if (!is_to_move(player)) return out;
  const Catalog& c = catalog();
  auto consider = [&](const Parsed& a) {
    if (!check_rules(player, a, nullptr)) out.push_back(action_json(a));
  };
  auto simple = [&](Act act) { consider(Parsed{act, -1, -1, -1, 0}); };
  const int ng = static_cast<int>(c.goods.size());
  switch (d_.phase) {
    case Phase::investment: {
      simple(Act::end_investment);
      for (int k : d_.seats[player].contracts) consider(Parsed{Act::sell, -1, -1, k, 0});
      for (int b : d_.bonus_display) consider(Parsed{Act::buy, -1, -1, b, 0});
      for (int b : d_.building_display) consider(Parsed{Act::buy, -1, -1, static_cast<int>(c.bonus_cards.size()) + b, 0});
      break;
    }
    case Phase::travel:
      for (int l = 0; l < static_cast<int>(c.locations.size()); ++l) consider(Parsed{Act::travel, -1, -1, l, 0});
      break;
    case Phase::take: {
      const Colour& col = c.colours[c.locations[d_.location].colour];
      for (int g : col.goods) {
        for (int k = 1; k <= std::max(1, d_.take_cubes - 1); ++k) consider(Parsed{Act::take, g, -1, -1, k});
      }
      break;
    }
    case Phase::letter:
      simple(Act::keep_letter);
      simple(Act::next_letter);
      break;
    case Phase::loss:
      for (int g : c.columns[d_.loss_column].goods) consider(Parsed{Act::discard, g, -1, -1, 0});
      break;
    case Phase::contracts:
      // Fulfilments first (a bot taking the first action fulfils what it can), then done.
      for (int k : d_.seats[player].contracts) consider(Parsed{Act::fulfil, -1, -1, k, 0});
      simple(Act::done);
      for (int get = 0; get < ng; ++get) {
        for (int give = kTime; give < ng; ++give) {
          if (give == -1) continue;
          consider(Parsed{Act::trade, get, give, -1, 0});
        }
      }
      break;
    case Phase::joining:
      simple(Act::decline);
      simple(Act::join);
      break;
    case Phase::over: return out;
  }
  for (int g = 0; g < ng; ++g) consider(Parsed{Act::supply, g, -1, -1, 0});
  return out;
}

// ---- Applying -----------------------------------------------------------------------------------

bool MerkatorState::may_take_back(int, const Parsed&, const Data& before) const {
  if (d_.turn != before.turn) return false;  // only within the turn: the next one has begun
  if (d_.phase == Phase::joining) return false;
  // Nothing drawn from a pile (a refilled display, a new contract) and no time counter taken or turned.
  return d_.piles == before.piles && d_.bonus_pile == before.bonus_pile && d_.building_pile == before.building_pile &&
         d_.bonus_display == before.bonus_display && d_.building_display == before.building_display &&
         d_.chart == before.chart;
}

std::vector<Event> MerkatorState::play(int player, const Parsed& a) {
  const Catalog& c = catalog();
  std::vector<Event> ev;
  auto pub = [&](Json j) { ev.push_back(Event::public_event(std::move(j))); };
  Seat& seat = d_.seats[player];
  switch (a.act) {
    case Act::supply: {
      const int colour = c.goods[a.good].colour;
      --seat.supply[colour];
      ++seat.goods[a.good];
      pub({{"type", "supply"}, {"player", player}, {"good", c.goods[a.good].id}, {"colour", c.colours[colour].id},
           {"left", seat.supply[colour]}});
      break;
    }
    case Act::sell: {
      erase_one(seat.contracts, a.id);
      d_.discards.insert(std::upper_bound(d_.discards.begin(), d_.discards.end(), a.id), a.id);
      seat.coins += c.contracts[a.id].value;
      pub({{"type", "sell"}, {"player", player}, {"contract", c.contracts[a.id].id}, {"value", c.contracts[a.id].value},
           {"coins", seat.coins}});
      break;
    }
    case Act::buy: {
      const int nb = static_cast<int>(c.bonus_cards.size());
      const bool is_bonus = a.id < nb;
      const int card = is_bonus ? a.id : a.id - nb;
      auto& display = is_bonus ? d_.bonus_display : d_.building_display;
      auto& pile = is_bonus ? d_.bonus_pile : d_.building_pile;
      const int cost = is_bonus ? c.bonus_cards[card].cost : c.buildings[card].cost;
      seat.coins -= cost;
      (is_bonus ? seat.bonus : seat.buildings).push_back(card);
      auto it = std::find(display.begin(), display.end(), card);
      Json revealed = nullptr;
      if (!pile.empty()) {
        *it = pile.back();
        pile.pop_back();
        revealed = is_bonus ? c.bonus_cards[*it].id : c.buildings[*it].id;
      } else {
        display.erase(it);
      }
      pub({{"type", "buy"}, {"player", player}, {"card", is_bonus ? c.bonus_cards[card].id : c.buildings[card].id},
           {"kind", is_bonus ? "bonus" : "building"}, {"cost", cost}, {"coins", seat.coins}, {"revealed", revealed},
           {"pile_count", pile.size()}});
      break;
    }
    case Act::end_investment: {
      const int lost = std::max(0, seat.coins - c.setup.max_coins);
      seat.coins -= lost;
      pub({{"type", "end_investment"}, {"player", player}, {"coins", seat.coins}, {"lost", lost}});
      d_.phase = Phase::travel;
      break;
    }
    case Act::travel: {
      const Location& loc = c.locations[a.id];
      const int paid = std::max(0, -loc.time);
      seat.time -= paid;
      d_.location = a.id;
      pub({{"type", "travel"}, {"player", player}, {"location", loc.id}, {"paid", paid}, {"time", seat.time}});
      const int n = loc.major ? d_.cubes[a.id] : 0;
      if (loc.major) d_.cubes[a.id] = 0;
      if (n == 2) {
        const Colour& col = c.colours[loc.colour];
        ++seat.goods[col.goods[0]];
        ++seat.goods[col.goods[1]];
        pub({{"type", "take"}, {"player", player}, {"location", loc.id},
             {"goods", {{c.goods[col.goods[0]].id, 1}, {c.goods[col.goods[1]].id, 1}}}});
      }
      if (n == 1 || n >= 3) {
        d_.take_cubes = n;
        d_.phase = Phase::take;
      } else {
        after_take(ev);
      }
      break;
    }
    case Act::take: {
      const Colour& col = c.colours[c.locations[d_.location].colour];
      const int other = col.goods[0] == a.good ? col.goods[1] : col.goods[0];
      const int k = static_cast<int>(a.count);
      seat.goods[a.good] += k;
      seat.goods[other] += d_.take_cubes - k;
      Json goods = {{c.goods[a.good].id, k}};
      if (d_.take_cubes - k > 0) goods[c.goods[other].id] = d_.take_cubes - k;
      pub({{"type", "take"}, {"player", player}, {"location", c.locations[d_.location].id}, {"goods", goods}});
      d_.take_cubes = 0;
      after_take(ev);
      break;
    }
    case Act::keep_letter:
      pub({{"type", "keep_letter"}, {"player", player}});
      d_.next_row = -1;
      if (resolve_loss(d_.letter, ev)) continue_gain(ev);
      break;
    case Act::next_letter: {
      Counter& counter = d_.chart[d_.next_row].front();
      counter.known = true;
      d_.letter = counter.letter;
      const TimeLetter& l = c.time_chart[counter.letter];
      pub({{"type", "letter"}, {"player", player}, {"letter", c.letter_name(l)}, {"column", c.columns[l.column].id},
           {"count", l.count}, {"row", d_.next_row}, {"next_row", true}});
      d_.next_row = -1;
      if (resolve_loss(d_.letter, ev)) continue_gain(ev);
      break;
    }
    case Act::discard: {
      --seat.goods[a.good];
      --d_.loss_need[player];
      pub({{"type", "goods_lost"}, {"player", player}, {"column", c.columns[d_.loss_column].id},
           {"goods", {{c.goods[a.good].id, 1}}}, {"chosen", true}});
      if (process_loss(ev)) continue_gain(ev);
      break;
    }
    case Act::trade: {
      if (a.give == kTime) {
        seat.time -= kTradeRate;
      } else {
        seat.goods[a.give] -= kTradeRate;
      }
      ++seat.goods[a.good];
      pub({{"type", "trade"}, {"player", player}, {"give", a.give == kTime ? std::string("time") : c.goods[a.give].id},
           {"count", kTradeRate}, {"good", c.goods[a.good].id}, {"time", seat.time}});
      break;
    }
    case Act::fulfil: {
      const Contract& ct = c.contracts[a.id];
      Json goods = Json::object();
      for (const auto& [g, q] : ct.goods) {
        seat.goods[g] -= q;
        goods[c.goods[g].id] = q;
      }
      seat.fulfilled.push_back(a.id);
      pub({{"type", "fulfil"}, {"player", player}, {"contract", ct.id}, {"value", ct.value}, {"goods", goods}});
      gain_contract(player, a.id, ev);
      if (!has_eligible_contract(player)) after_contracts(ev);
      break;
    }
    case Act::done:
      pub({{"type", "done"}, {"player", player}});
      after_contracts(ev);
      break;
    case Act::join: {
      const int cost = join_cost(d_.location);
      seat.time -= cost;
      d_.seats[d_.active].time += cost;
      pub({{"type", "join"}, {"player", player}, {"paid", cost}, {"to", d_.active}, {"time", seat.time},
           {"active_time", d_.seats[d_.active].time}});
      give_bonus_goods(player, true, ev);
      enter_contracts(player, ev);
      break;
    }
    case Act::decline:
      pub({{"type", "decline"}, {"player", player}});
      ask_next_joiner(ev);
      break;
  }
  return ev;
}

void MerkatorState::start_turn(int player, std::vector<Event>& ev) {
  d_.active = player;
  d_.decider = player;
  d_.phase = Phase::investment;
  ++d_.turn;
  for (auto& s : d_.seats) s.fulfilled.clear();
  if (d_.last_round) --d_.turns_left;
  const Seat& seat = d_.seats[player];
  const bool forced = !d_.last_round && static_cast<int>(seat.contracts.size()) > catalog().setup.max_contracts;
  ev.push_back(Event::public_event({{"type", "turn"}, {"player", player}, {"turn", d_.turn}, {"last_round", d_.last_round},
                                    {"turns_left", d_.turns_left}, {"forced_investment", forced}}));
}

void MerkatorState::give_bonus_goods(int player, bool joiner, std::vector<Event>& ev) {
  const Catalog& c = catalog();
  Seat& seat = d_.seats[player];
  Json goods = Json::object();
  for (int b : seat.bonus) {
    const BonusCard& card = c.bonus_cards[b];
    if (card.location != d_.location) continue;
    const int n = joiner ? card.joiner : card.active;
    if (n == 0) continue;
    seat.goods[card.good] += n;
    goods[c.goods[card.good].id] = goods.value(c.goods[card.good].id, 0) + n;
  }
  if (!goods.empty()) {
    ev.push_back(Event::public_event({{"type", "bonus_goods"}, {"player", player}, {"location", c.locations[d_.location].id},
                                      {"goods", goods}, {"joiner", joiner}}));
  }
}

void MerkatorState::after_take(std::vector<Event>& ev) {
  const Catalog& c = catalog();
  const Location& loc = c.locations[d_.location];
  give_bonus_goods(d_.active, false, ev);
  // Restock: by roads after a major, by the minor's number after a minor (counted before any cube is added).
  std::vector<int> added;
  if (loc.major) {
    added = loc.roads;
  } else {
    for (std::size_t l = 0; l < c.locations.size(); ++l) {
      if (c.locations[l].major && d_.cubes[l] == loc.restock_if_exactly) added.push_back(static_cast<int>(l));
    }
  }
  Json ids = Json::array();
  Json counts = Json::object();
  for (int l : added) {
    ++d_.cubes[l];
    ids.push_back(c.locations[l].id);
    counts[c.locations[l].id] = d_.cubes[l];
  }
  ev.push_back(Event::public_event({{"type", "restock"}, {"location", loc.id}, {"added", ids}, {"cubes", counts}}));
  d_.gain_left = std::max(0, loc.time);
  continue_gain(ev);
}

void MerkatorState::continue_gain(std::vector<Event>& ev) {
  const Catalog& c = catalog();
  Seat& seat = d_.seats[d_.active];
  while (d_.gain_left > 0) {
    --d_.gain_left;
    ++seat.time;
    if (d_.last_round || chart_remaining() == 0) {
      ev.push_back(Event::public_event({{"type", "time"}, {"player", d_.active}, {"source", "supply"}, {"time", seat.time},
                                        {"chart_remaining", chart_remaining()}}));
      continue;
    }
    int r = 0;
    while (d_.chart[r].empty()) ++r;
    const Counter counter = d_.chart[r].front();
    d_.chart[r].erase(d_.chart[r].begin());
    ev.push_back(Event::public_event({{"type", "time"}, {"player", d_.active}, {"source", "chart"}, {"row", r},
                                      {"time", seat.time}, {"chart_remaining", chart_remaining()}}));
    if (!d_.chart[r].empty()) continue;
    // The row is empty: the counter is turned over, and its letter strikes every office board.
    const TimeLetter& l = c.time_chart[counter.letter];
    d_.letter = counter.letter;
    ev.push_back(Event::public_event({{"type", "letter"}, {"player", d_.active}, {"letter", c.letter_name(l)},
                                      {"column", c.columns[l.column].id}, {"count", l.count}, {"row", r},
                                      {"next_row", false}}));
    if (chart_remaining() == 0) trigger_end("chart", d_.active, ev);
    if (l.count == 1 && r + 1 < static_cast<int>(d_.chart.size()) && !d_.chart[r + 1].empty()) {
      d_.phase = Phase::letter;
      d_.decider = d_.active;
      d_.next_row = r + 1;
      return;
    }
    if (!resolve_loss(d_.letter, ev)) return;
  }
  enter_contracts(d_.active, ev);
}

bool MerkatorState::resolve_loss(int letter, std::vector<Event>& ev) {
  const TimeLetter& l = catalog().time_chart[letter];
  d_.loss_column = l.column;
  for (int p = 0; p < d_.players; ++p) d_.loss_need[p] = std::min(l.count, column_total(p, l.column));
  return process_loss(ev);
}

bool MerkatorState::process_loss(std::vector<Event>& ev) {
  const Catalog& c = catalog();
  for (int k = 0; k < d_.players; ++k) {
    const int p = (d_.active + k) % d_.players;
    int& need = d_.loss_need[p];
    if (need == 0) continue;
    Seat& seat = d_.seats[p];
    if (column_kinds(p, d_.loss_column) > 1 && need < column_total(p, d_.loss_column)) {
      d_.phase = Phase::loss;
      d_.decider = p;
      return false;
    }
    // No choice: everything in the column, or all of one kind.
    Json goods = Json::object();
    for (int g : c.columns[d_.loss_column].goods) {
      const int n = std::min(need, seat.goods[g]);
      if (n == 0) continue;
      seat.goods[g] -= n;
      need -= n;
      goods[c.goods[g].id] = n;
    }
    ev.push_back(Event::public_event({{"type", "goods_lost"}, {"player", p}, {"column", c.columns[d_.loss_column].id},
                                      {"goods", goods}, {"chosen", false}}));
  }
  d_.loss_column = -1;
  d_.letter = -1;
  d_.decider = d_.active;
  return true;
}

void MerkatorState::enter_contracts(int player, std::vector<Event>& ev) {
  d_.decider = player;
  if (has_eligible_contract(player)) {
    d_.phase = Phase::contracts;
  } else {
    after_contracts(ev);
  }
}

void MerkatorState::after_contracts(std::vector<Event>& ev) {
  if (d_.decider == d_.active) d_.joiner_step = 0;
  ask_next_joiner(ev);
}

void MerkatorState::ask_next_joiner(std::vector<Event>& ev) {
  const int cost = join_cost(d_.location);
  while (++d_.joiner_step < d_.players) {
    const int q = (d_.active + d_.joiner_step) % d_.players;
    if (d_.seats[q].time >= cost) {
      d_.phase = Phase::joining;
      d_.decider = q;
      return;
    }
  }
  d_.joiner_step = 0;
  end_turn(ev);
}

void MerkatorState::trigger_end(const char* why, int player, std::vector<Event>& ev) {
  if (!d_.trigger.empty()) return;  // the other trigger then changes nothing
  d_.trigger = why;
  ev.push_back(Event::public_event({{"type", "end_triggered"}, {"reason", why}, {"player", player}}));
}

void MerkatorState::end_turn(std::vector<Event>& ev) {
  if (!d_.trigger.empty() && !d_.last_round) {
    d_.last_round = true;
    d_.turns_left = d_.players;
  }
  if (d_.last_round && d_.turns_left == 0) {
    finish(ev);
    return;
  }
  start_turn((d_.active + 1) % d_.players, ev);
}

void MerkatorState::gain_contract(int player, int fulfilled, std::vector<Event>& ev) {
  const Catalog& c = catalog();
  const int vi = c.value_index(c.contracts[fulfilled].value);
  // Takes the top of pile `v`, shuffling that value's discards into a new pile when it is empty.
  auto take_from = [&](int v, const char** source) -> int {
    auto& pile = d_.piles[v];
    if (pile.empty()) {
      std::vector<int> back;
      for (int k : d_.discards) {
        if (c.contracts[k].value == c.values[v]) back.push_back(k);
      }
      if (back.empty()) return -1;
      for (int k : back) erase_one(d_.discards, k);
      d_.rng.shuffle(back);
      pile = back;
      *source = "reshuffled";
      ev.push_back(Event::public_event({{"type", "reshuffle"}, {"value", c.values[v]}, {"count", back.size()}}));
    }
    const int k = pile.back();
    pile.pop_back();
    return k;
  };
  const char* source = "pile";
  int got = -1, from = -1;
  if (vi + 1 < static_cast<int>(c.values.size())) {
    from = vi + 1;
    got = take_from(from, &source);
  }
  if (got < 0) {
    source = "same_value";
    from = vi;
    const char* ignored = "";
    got = take_from(from, &ignored);
  }
  if (got < 0) {
    ev.push_back(Event::public_event({{"type", "new_contract"}, {"player", player}, {"contract", nullptr}, {"source", "none"}}));
    return;
  }
  d_.seats[player].contracts.push_back(got);
  const auto& pile = d_.piles[from];
  ev.push_back(Event::public_event({{"type", "new_contract"}, {"player", player}, {"contract", c.contracts[got].id},
                                    {"value", c.contracts[got].value}, {"source", source},
                                    {"pile_top", pile.empty() ? Json(nullptr) : Json(c.contracts[pile.back()].id)},
                                    {"pile_count", pile.size()}}));
  if (got == c.peace) trigger_end("peace", player, ev);
}

// ---- Scoring ------------------------------------------------------------------------------------

int measure_with(const Data& d, const Measure& m, int player, const std::vector<int>& goods) {
  const Seat& seat = d.seats[player];
  switch (m.type) {
    case Measure::Type::cubes: {
      int n = 0;
      for (int g : m.goods) n += goods[g];
      return n;
    }
    case Measure::Type::distinct: {
      int n = 0;
      for (int g : m.goods) n += goods[g] > 0;
      return n;
    }
    case Measure::Type::time: return seat.time;
    case Measure::Type::contracts: {
      int n = 0;
      for (int k : seat.contracts) n += m.filter.matches((*d.catalog).contracts[k]);
      return n;
    }
    case Measure::Type::buildings: return static_cast<int>(seat.buildings.size());
  }
  return 0;
}

int building_points_with(const Data& d, int building, int player, const std::vector<std::vector<int>>& goods) {
  const Catalog& c = *d.catalog;
  const Formula& f = c.buildings[building].formula;
  const std::vector<int>& h = goods[player];
  auto linear = [&](int n) {
    const int pts = f.points * (n / f.per);
    return f.max ? std::min(pts, *f.max) : pts;
  };
  switch (f.kind) {
    case Formula::Kind::per_cube: {
      int n = 0;
      for (int g : f.goods) n += h[g];
      return linear(n);
    }
    case Formula::Kind::per_distinct: {
      int n = 0;
      for (int g : f.goods) n += h[g] > 0;
      return linear(n);
    }
    case Formula::Kind::per_colour_pair: {
      int n = 0;
      for (int col : f.colours) n += h[c.colours[col].goods[0]] > 0 && h[c.colours[col].goods[1]] > 0;
      return linear(n);
    }
    case Formula::Kind::per_set: {
      int n = -1;
      for (const auto& comp : f.components) {
        int sum = 0;
        for (int g : comp.goods) sum += h[g];
        n = n < 0 ? sum / comp.qty : std::min(n, sum / comp.qty);
      }
      return linear(std::max(n, 0));
    }
    case Formula::Kind::per_time: return linear(d.seats[player].time);
    case Formula::Kind::per_contract: {
      int n = 0;
      for (int k : d.seats[player].contracts) n += f.filter.matches(c.contracts[k]);
      return linear(n);
    }
    case Formula::Kind::threshold: return measure_with(d, f.measure, player, h) >= f.at_least ? f.points : 0;
    case Formula::Kind::sole_most: {
      const int mine = measure_with(d, f.measure, player, h);
      if (mine < 1) return 0;
      for (int q = 0; q < d.players; ++q) {
        if (q != player && measure_with(d, f.measure, q, goods[q]) >= mine) return 0;
      }
      return f.points;
    }
  }
  return 0;
}

int MerkatorState::building_points(int building, int player) const {
  std::vector<std::vector<int>> goods;
  for (const auto& s : d_.seats) goods.push_back(s.goods);
  return building_points_with(d_, building, player, goods);
}

int MerkatorState::measure(const Measure& m, int player) const { return measure_with(d_, m, player, d_.seats[player].goods); }

std::vector<int> MerkatorState::final_goods(int player) const {
  // The supply tile's cubes go onto the board as whichever goods give the owner the most building points
  // (rivals judged with their own cubes placed as each colour's first good); the first best placement wins.
  const Catalog& c = catalog();
  std::vector<std::vector<int>> goods;
  for (int p = 0; p < d_.players; ++p) {
    std::vector<int> g = d_.seats[p].goods;
    for (std::size_t col = 0; col < c.colours.size(); ++col) g[c.colours[col].goods[0]] += d_.seats[p].supply[col];
    goods.push_back(g);
  }
  const Seat& seat = d_.seats[player];
  std::vector<int> options;  // per colour: the splits tried (cubes placed as the first good)
  long long combos = 1;
  for (int s : seat.supply) combos *= (s + 1);
  const bool every_split = combos <= 65536;
  std::vector<std::vector<int>> splits(c.colours.size());
  for (std::size_t col = 0; col < c.colours.size(); ++col) {
    const int s = seat.supply[col];
    if (every_split) {
      for (int k = 0; k <= s; ++k) splits[col].push_back(k);
    } else {
      splits[col] = s > 0 ? std::vector<int>{s, 0} : std::vector<int>{0};
    }
  }
  std::vector<std::size_t> pick(c.colours.size(), 0);
  std::vector<int> best;
  int best_points = -1;
  while (true) {
    std::vector<int> g = seat.goods;
    for (std::size_t col = 0; col < c.colours.size(); ++col) {
      const int first = splits[col][pick[col]];
      g[c.colours[col].goods[0]] += first;
      g[c.colours[col].goods[1]] += seat.supply[col] - first;
    }
    goods[player] = g;
    int pts = 0;
    for (int b : seat.buildings) pts += building_points_with(d_, b, player, goods);
    if (pts > best_points) {
      best_points = pts;
      best = g;
    }
    std::size_t i = 0;
    while (i < pick.size() && ++pick[i] == splits[i].size()) pick[i++] = 0;
    if (i == pick.size()) break;
  }
  return best;
}

void MerkatorState::finish(std::vector<Event>& ev) {
  const Catalog& c = catalog();
  std::vector<std::vector<int>> goods;
  for (int p = 0; p < d_.players; ++p) goods.push_back(final_goods(p));
  Json players = Json::array();
  for (int p = 0; p < d_.players; ++p) {
    const Seat& seat = d_.seats[p];
    std::vector<int> values;
    for (int k : seat.contracts) values.push_back(c.contracts[k].value);
    std::sort(values.rbegin(), values.rend());
    int contract_points = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
      contract_points += static_cast<int>(i) < c.contract_spaces ? values[i] : values[i] / 2;
    }
    Json buildings = Json::array();
    int building_total = 0;
    for (int b : seat.buildings) {
      const int pts = building_points_with(d_, b, p, goods);
      building_total += pts;
      buildings.push_back({{"building", c.buildings[b].id}, {"points", pts}});
    }
    players.push_back({{"player", p}, {"contracts", contract_points}, {"buildings", buildings},
                       {"building_points", building_total}, {"total", contract_points + building_total},
                       {"time", seat.time}, {"goods", goods_json(goods[p])}});
  }
  d_.scoring = {{"players", players}};
  d_.phase = Phase::over;
  d_.decider = -1;
  ev.push_back(Event::public_event({{"type", "game_over"}, {"scoring", d_.scoring}, {"result", result()}}));
}

Json MerkatorState::result() const {
  if (d_.phase != Phase::over) return nullptr;
  std::vector<std::pair<int, int>> key(d_.players);  // (points, time)
  for (int p = 0; p < d_.players; ++p) {
    key[p] = {d_.scoring["players"][p]["total"].get<int>(), d_.seats[p].time};
  }
  std::vector<int> order(d_.players);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key[a] > key[b]; });
  const auto best = key[order[0]];
  Json ranking = Json::array(), winners = Json::array();
  for (int p : order) {
    const int rank = 1 + static_cast<int>(std::count_if(key.begin(), key.end(), [&](const auto& k) { return k > key[p]; }));
    ranking.push_back({{"player", p}, {"rank", rank}, {"points", key[p].first}, {"time", key[p].second}});
    if (key[p] == best) winners.push_back(p);
  }
  return {{"ranking", ranking}, {"winners", winners}};
}

// ---- Views --------------------------------------------------------------------------------------

Json MerkatorState::goods_json(const std::vector<int>& counts) const {
  Json out = Json::object();
  for (std::size_t g = 0; g < counts.size(); ++g) out[catalog().goods[g].id] = counts[g];
  return out;
}

Json MerkatorState::ids_json(const std::vector<int>& contracts) const {
  Json out = Json::array();
  for (int k : contracts) out.push_back(catalog().contracts[k].id);
  return out;
}

Json MerkatorState::seat_json(int p) const {
  const Catalog& c = catalog();
  const Seat& s = d_.seats[p];
  Json supply = Json::object();
  for (std::size_t col = 0; col < c.colours.size(); ++col) supply[c.colours[col].id] = s.supply[col];
  Json bonus = Json::array(), buildings = Json::array();
  for (int b : s.bonus) bonus.push_back(c.bonus_cards[b].id);
  for (int b : s.buildings) buildings.push_back(c.buildings[b].id);
  return {{"coins", s.coins}, {"time", s.time}, {"goods", goods_json(s.goods)}, {"supply", supply},
          {"contracts", ids_json(s.contracts)}, {"fulfilled", ids_json(s.fulfilled)}, {"bonus_cards", bonus},
          {"buildings", buildings}};
}

Json MerkatorState::view(const Viewer& viewer) const {
  const Catalog& c = catalog();
  const bool full = viewer.kind == Viewer::Kind::full;
  Json cubes = Json::object();
  for (std::size_t l = 0; l < c.locations.size(); ++l) {
    if (c.locations[l].major) cubes[c.locations[l].id] = d_.cubes[l];
  }
  Json rows = Json::array();
  for (const auto& row : d_.chart) {
    Json known = Json::object();
    // Counters lie at the right end of the row (taken from the left): position = row length - count + i.
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (row[i].known) {
        known[std::to_string(static_cast<std::size_t>(c.setup.chart_row_length) - row.size() + i)] =
            c.letter_name(c.time_chart[row[i].letter]);
      }
    }
    rows.push_back({{"count", row.size()}, {"known", known}});
  }
  Json piles = Json::array();
  for (std::size_t v = 0; v < d_.piles.size(); ++v) {
    const auto& pile = d_.piles[v];
    piles.push_back({{"value", c.values[v]}, {"count", pile.size()},
                     {"top", pile.empty() ? Json(nullptr) : Json(c.contracts[pile.back()].id)}});
  }
  Json bonus_display = Json::array(), building_display = Json::array();
  for (int b : d_.bonus_display) bonus_display.push_back(c.bonus_cards[b].id);
  for (int b : d_.building_display) building_display.push_back(c.buildings[b].id);
  Json seats = Json::array();
  for (int p = 0; p < d_.players; ++p) seats.push_back(seat_json(p));
  Json take = nullptr, loss = nullptr, joining = nullptr, letter = nullptr;
  if (d_.phase == Phase::take) {
    take = {{"cubes", d_.take_cubes}, {"colour", c.colours[c.locations[d_.location].colour].id}};
  }
  if (d_.letter >= 0) letter = c.letter_name(c.time_chart[d_.letter]);
  if (d_.phase == Phase::loss) loss = {{"column", c.columns[d_.loss_column].id}, {"need", d_.loss_need}};
  if (d_.phase == Phase::joining) joining = {{"player", d_.decider}, {"cost", join_cost(d_.location)}};
  Json v = {{"game", "merkator"},
            {"players", d_.players},
            {"version", d_.version},
            {"phase", phase_name(d_.phase)},
            {"turn", d_.turn},
            {"start_player", d_.start_player},
            {"active", d_.active},
            {"to_move", to_move()},
            {"location", d_.location >= 0 ? Json(c.locations[d_.location].id) : Json(nullptr)},
            {"cubes", cubes},
            {"chart", {{"rows", rows}, {"remaining", chart_remaining()}}},
            {"letter", letter},
            {"next_row", d_.phase == Phase::letter ? Json(d_.next_row) : Json(nullptr)},
            {"take", take},
            {"loss", loss},
            {"joining", joining},
            {"contract_piles", piles},
            {"discards", ids_json(d_.discards)},
            {"bonus_display", bonus_display},
            {"bonus_pile_count", d_.bonus_pile.size()},
            {"building_display", building_display},
            {"building_pile_count", d_.building_pile.size()},
            {"trigger", d_.trigger.empty() ? Json(nullptr) : Json(d_.trigger)},
            {"last_round", d_.last_round},
            {"turns_left", d_.turns_left},
            {"seats", seats},
            {"scoring", d_.scoring},
            {"result", result()}};
  if (full) {
    Json orders = Json::array();
    for (const auto& pile : d_.piles) {
      Json ids = Json::array();
      for (auto it = pile.rbegin(); it != pile.rend(); ++it) ids.push_back(c.contracts[*it].id);
      orders.push_back(ids);
    }
    v["piles"] = orders;
    Json bp = Json::array(), kp = Json::array();
    for (auto it = d_.bonus_pile.rbegin(); it != d_.bonus_pile.rend(); ++it) bp.push_back(c.bonus_cards[*it].id);
    for (auto it = d_.building_pile.rbegin(); it != d_.building_pile.rend(); ++it) kp.push_back(c.buildings[*it].id);
    v["bonus_pile"] = bp;
    v["building_pile"] = kp;
    Json letters = Json::array();
    for (const auto& row : d_.chart) {
      Json r = Json::array();
      for (const auto& counter : row) r.push_back(c.letter_name(c.time_chart[counter.letter]));
      letters.push_back(r);
    }
    v["chart_letters"] = letters;
  }
  return v;
}

GameInfo game_info() {
  GameInfo info;
  info.id = "merkator";
  info.display_name = "Merkator";
  info.min_players = kMinPlayers;
  info.max_players = kMaxPlayers;
  info.unavailable = []() -> std::optional<Error> {
    if (installed_catalog()) return std::nullopt;
    return make_error(errc::game_unavailable,
                      "Merkator's card and map data is not loaded (the server reads merkator-data.json at start-up)");
  };
  info.create = [](const Json&, int players, Seed seed) -> std::unique_ptr<State> {
    auto catalog = installed_catalog();
    if (!catalog) return nullptr;
    return std::make_unique<MerkatorState>(std::move(catalog), players, seed);
  };
  return info;
}

}  // namespace emporium::engine::merkator
