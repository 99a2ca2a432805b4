#include "silkroad/silkroad.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "emporium/engine/registry.hpp"

namespace emporium::engine::silkroad {
namespace {

constexpr const char* kGoodNames[kGoods] = {"porcelain", "silk", "tea", "spice", "glass", "ore"};
constexpr const char* kCardNames[kCardKinds] = {"ship", "exchange", "porter", "license"};
constexpr int kCosts[kCardKinds] = {10, 8, 12, 11};
constexpr int kSupplies[kCardKinds] = {14, 2, 2, 2};

Json counts_json(const Counts& counts, bool skip_zero) {
  Json out = Json::object();
  for (Good g : kAllGoods) {
    if (!skip_zero || counts[gi(g)] > 0) out[good_name(g)] = counts[gi(g)];
  }
  return out;
}

Json ships_json(const std::vector<Good>& ships) {
  Json out = Json::array();
  for (Good g : ships) out.push_back(good_name(g));
  return out;
}

}  // namespace

const char* good_name(Good g) { return kGoodNames[gi(g)]; }
std::optional<Good> good_from_name(const std::string& name) {
  for (Good g : kAllGoods) {
    if (name == kGoodNames[gi(g)]) return g;
  }
  return std::nullopt;
}
const char* card_name(Card c) { return kCardNames[ci(c)]; }
std::optional<Card> card_from_name(const std::string& name) {
  for (Card c : kAllCards) {
    if (name == kCardNames[ci(c)]) return c;
  }
  return std::nullopt;
}
int card_cost(Card c) { return kCosts[ci(c)]; }
int card_supply(Card c) { return kSupplies[ci(c)]; }

const char* phase_name(Phase p) {
  switch (p) {
    case Phase::loading: return "loading";
    case Phase::phase1: return "phase1";
    case Phase::exchanging: return "exchanging";
    case Phase::phase2: return "phase2";
    case Phase::extra_draws: return "extra_draws";
    case Phase::over: return "over";
  }
  return "?";
}

int Seat::hand_count() const { return std::accumulate(hand.begin(), hand.end(), 0); }

SilkRoadState::SilkRoadState(int players, Seed seed) {
  d_.players = players;
  d_.rng = Rng(seed);
  d_.start_player = static_cast<int>(d_.rng.below(players));
  d_.active = d_.start_player;
  std::vector<Good> cards;
  for (Good g : kAllGoods) cards.insert(cards.end(), kCardsPerGood, g);
  d_.rng.shuffle(cards);
  d_.deck = std::move(cards);
  d_.seats.assign(players, Seat{});
  for (int p = 0; p < players; ++p) {
    for (int i = 0; i < kStartingHand; ++i) {
      ++d_.seats[p].hand[gi(d_.deck.back())];
      d_.deck.pop_back();
    }
  }
  for (int slot = 0; slot < kMarketSlots; ++slot) {
    d_.market[slot].push_back(d_.deck.back());
    d_.deck.pop_back();
  }
  d_.supply.fill(kMarkersPerColour);
  for (Card c : kAllCards) d_.stock[ci(c)] = card_supply(c);
  d_.stock[ci(Card::ship)] -= kStartingShips * players;
  d_.phase = Phase::loading;
}

const GameInfo& SilkRoadState::info() const { return *find_game("silkroad"); }

int SilkRoadState::loader() const {
  if (d_.phase != Phase::loading) return -1;
  return (d_.start_player + d_.loads) % d_.players;
}

int SilkRoadState::visible(Good g) const {
  int n = 0;
  for (int slot = 0; slot < kMarketSlots; ++slot) n += top(slot) == g;
  return n;
}

int SilkRoadState::ships_with(int player, Good g) const {
  const auto& ships = d_.seats[player].ships;
  return static_cast<int>(std::count(ships.begin(), ships.end(), g));
}

std::vector<int> SilkRoadState::to_move() const {
  switch (d_.phase) {
    case Phase::loading: return {loader()};
    case Phase::over: return {};
    default: return {d_.active};
  }
}

bool SilkRoadState::can_exchange(int player) const {
  for (Good on : d_.seats[player].ships) {
    for (Good g : kAllGoods) {
      if (g != on && d_.supply[gi(g)] > 0) return true;
    }
  }
  return false;
}

// ---- Validation ---------------------------------------------------------------------------------

namespace {

// Each action type, its wire name and the fields it takes besides "type".
struct ActionShape {
  Act act;
  const char* type;
  bool good;
  bool index;  // "ship" (exchange) or "slot" (play)
  bool card;
};
constexpr ActionShape kShapes[] = {
    {Act::load, "load", true, false, false},         {Act::exchange, "exchange", true, true, false},
    {Act::end_phase, "end_phase", false, false, false}, {Act::buy, "buy", true, false, true},
    {Act::pass, "pass", false, false, false},        {Act::play, "play", true, true, false},
    {Act::score, "score", false, false, false},      {Act::draw, "draw", false, false, false},
    {Act::extra_draw, "extra_draw", false, false, false}, {Act::done, "done", false, false, false},
};

const ActionShape& shape_of(Act act) { return kShapes[static_cast<int>(act)]; }

}  // namespace

std::optional<Error> SilkRoadState::parse(const Json& action, Parsed* out) const {
  const std::string& type = action["type"].get_ref<const std::string&>();
  const ActionShape* shape = nullptr;
  for (const auto& s : kShapes) {
    if (type == s.type) shape = &s;
  }
  if (!shape) return make_error(errc::malformed_action, "unknown action type '" + type + "'");
  const char* index_name = shape->act == Act::play ? "slot" : "ship";
  for (const auto& [key, value] : action.items()) {
    const bool known = key == "type" || (shape->good && key == "good") || (shape->card && key == "card") ||
                       (shape->index && key == index_name);
    if (!known) return make_error(errc::malformed_action, "unexpected field '" + key + "' in a " + type + " action");
  }
  out->act = shape->act;
  if (shape->card) {
    if (!action.contains("card") || !action["card"].is_string()) {
      return make_error(errc::malformed_action, "a buy needs a \"card\": ship, exchange, porter or license");
    }
    out->card = card_from_name(action["card"].get<std::string>());
    if (!out->card) {
      return make_error(errc::malformed_action, "there is no special card called '" + action["card"].get<std::string>() +
                                                    "' (ship, exchange, porter, license)");
    }
  }
  // A buy names a good only for a Ship (its marker); every other action with a good requires one.
  const bool needs_good = shape->good && (!shape->card || out->card == Card::ship);
  if (shape->good) {
    if (!needs_good && action.contains("good")) {
      return make_error(errc::malformed_action, "only a ship is bought with a \"good\" (its marker)");
    }
    if (needs_good) {
      if (!action.contains("good") || !action["good"].is_string()) {
        return make_error(errc::malformed_action, "a " + type + " action needs a \"good\"");
      }
      out->good = good_from_name(action["good"].get<std::string>());
      if (!out->good) {
        return make_error(errc::malformed_action,
                          "there is no good called '" + action["good"].get<std::string>() +
                              "' (porcelain, silk, tea, spice, glass, ore)");
      }
    }
  }
  if (shape->index) {
    if (!action.contains(index_name) || !action[index_name].is_number_integer()) {
      return make_error(errc::malformed_action, std::string("a ") + type + " action needs a whole-number \"" +
                                                    index_name + "\"");
    }
    const Json& v = action[index_name];
    // Read as 64-bit and clamp, so a huge number is a clean refusal, not an overflow.
    out->index = v.is_number_unsigned()
                     ? static_cast<long long>(std::min<std::uint64_t>(v.get<std::uint64_t>(), 1ULL << 40))
                     : v.get<long long>();
  }
  return std::nullopt;
}

Json SilkRoadState::action_json(const Parsed& a) {
  const ActionShape& shape = shape_of(a.act);
  Json j = {{"type", shape.type}};
  if (a.card) j["card"] = card_name(*a.card);
  if (a.good) j["good"] = good_name(*a.good);
  if (shape.index) j[a.act == Act::play ? "slot" : "ship"] = a.index;
  return j;
}

void SilkRoadState::append_action_text(std::string& out, const Parsed& a) {
  // action_json's fields in the order nlohmann writes an object's keys (sorted): card, good, ship or slot, type.
  // Every name is one of the game's own plain words, so nothing needs escaping.
  const ActionShape& shape = shape_of(a.act);
  out += '{';
  if (a.card) out.append("\"card\":\"").append(card_name(*a.card)).append("\",");
  if (a.good) out.append("\"good\":\"").append(good_name(*a.good)).append("\",");
  if (shape.index) out.append(a.act == Act::play ? "\"slot\":" : "\"ship\":").append(std::to_string(a.index)).append(",");
  out.append("\"type\":\"").append(shape.type).append("\"}");
}

const char* SilkRoadState::check_rules(int player, const Parsed& a, Error* error) const {
  const Seat& seat = d_.seats[player];
  auto no_marker = [&] { return std::string("no ") + good_name(*a.good) + " marker is left in the supply"; };
  switch (a.act) {
    case Act::load:
      if (d_.phase != Phase::loading) {
        return refuse(error, errc::illegal_action, [] { return "markers are loaded only during setup"; });
      }
      if (d_.supply[gi(*a.good)] == 0) return refuse(error, "marker_unavailable", no_marker);
      return nullptr;
    case Act::exchange: {
      if (d_.phase != Phase::phase1 && d_.phase != Phase::exchanging) {
        return refuse(error, errc::illegal_action, [] { return "markers are exchanged only in phase 1"; });
      }
      if (a.index < 0 || a.index >= static_cast<long long>(seat.ships.size())) {
        return refuse(error, "no_such_ship",
                      [&] { return "you have ships 0 to " + std::to_string(seat.ships.size() - 1); });
      }
      const Good on = seat.ships[static_cast<std::size_t>(a.index)];
      if (on == *a.good) {
        return refuse(error, "same_marker", [&] {
          return std::string("that ship already carries ") + good_name(on) + ": an exchange must change the colour";
        });
      }
      if (d_.supply[gi(*a.good)] == 0) return refuse(error, "marker_unavailable", no_marker);
      return nullptr;
    }
    case Act::end_phase:
      if (d_.phase != Phase::exchanging) {
        return refuse(error, errc::illegal_action,
                      [] { return "end_phase stops exchanging; you have not begun exchanging"; });
      }
      return nullptr;
    case Act::buy: {
      if (d_.phase != Phase::phase1) {
        return refuse(error, errc::illegal_action,
                      [] { return "a special card is bought only as the phase-1 action"; });
      }
      const Card c = *a.card;
      if (d_.stock[ci(c)] == 0) {
        return refuse(error, "sold_out", [&] { return std::string("no ") + card_name(c) + " card is left"; });
      }
      if (seat.coins < card_cost(c)) {
        return refuse(error, "not_enough_coins", [&] {
          return std::string("a ") + card_name(c) + " costs " + std::to_string(card_cost(c)) + " coins; you have " +
                 std::to_string(seat.coins);
        });
      }
      if (c == Card::ship && d_.supply[gi(*a.good)] == 0) {
        return refuse(error, "marker_unavailable", [&] { return no_marker() + " to load the new ship"; });
      }
      return nullptr;
    }
    case Act::pass:
      if (d_.phase != Phase::phase1) return refuse(error, errc::illegal_action, [] { return "pass is a phase-1 choice"; });
      return nullptr;
    case Act::play:
      if (d_.phase != Phase::phase2) {
        return refuse(error, errc::illegal_action, [] { return "cards are played in phase 2"; });
      }
      if (seat.hand_count() == 0) return refuse(error, "must_draw", [] { return "you have no cards: you must draw"; });
      if (d_.played && *d_.played != *a.good) {
        return refuse(error, "one_good_per_turn", [&] {
          return std::string("you are playing ") + good_name(*d_.played) +
                 " this turn: all cards of a turn are of one good";
        });
      }
      if (seat.hand[gi(*a.good)] == 0) {
        return refuse(error, "not_in_hand", [&] { return std::string("you have no ") + good_name(*a.good) + " card"; });
      }
      if (a.index < 0 || a.index >= kMarketSlots) {
        return refuse(error, "no_such_slot", [] { return "the market slots are 0 to 5"; });
      }
      return nullptr;
    case Act::score:
      if (d_.phase != Phase::phase2) {
        return refuse(error, errc::illegal_action, [] { return "scoring follows playing cards in phase 2"; });
      }
      if (!d_.played) return refuse(error, "nothing_played", [] { return "play at least one card before scoring"; });
      return nullptr;
    case Act::draw:
      if (d_.phase != Phase::phase2) return refuse(error, errc::illegal_action, [] { return "drawing is a phase-2 choice"; });
      if (d_.played) {
        return refuse(error, "already_playing",
                      [] { return "you have begun playing cards this turn: play more or score"; });
      }
      return nullptr;
    case Act::extra_draw:
    case Act::done:
      if (d_.phase != Phase::extra_draws) {
        return refuse(error, errc::illegal_action, [] { return "Exchange draws come at the end of phase 2"; });
      }
      return nullptr;
  }
  return nullptr;
}

template <class Take>
void SilkRoadState::for_each_legal(int player, Take&& take) const {
  if (!is_to_move(player)) return;
  // Every candidate for the phase, kept when the rules accept it: the list is exactly what apply takes.
  auto consider = [&](Act act, std::optional<Good> good, std::optional<Card> card, long long index) {
    const Parsed a{act, good, card, index};
    if (!check_rules(player, a, nullptr)) take(a);
  };
  switch (d_.phase) {
    case Phase::loading:
      for (Good g : kAllGoods) consider(Act::load, g, std::nullopt, -1);
      break;
    case Phase::phase1:
    case Phase::exchanging:
      consider(d_.phase == Phase::phase1 ? Act::pass : Act::end_phase, std::nullopt, std::nullopt, -1);
      for (std::size_t i = 0; i < d_.seats[player].ships.size(); ++i) {
        for (Good g : kAllGoods) consider(Act::exchange, g, std::nullopt, static_cast<long long>(i));
      }
      for (Good g : kAllGoods) consider(Act::buy, g, Card::ship, -1);
      for (Card c : {Card::exchange, Card::porter, Card::license}) consider(Act::buy, std::nullopt, c, -1);
      break;
    case Phase::phase2:
      consider(Act::draw, std::nullopt, std::nullopt, -1);
      consider(Act::score, std::nullopt, std::nullopt, -1);
      for (Good g : kAllGoods) {
        for (int slot = 0; slot < kMarketSlots; ++slot) consider(Act::play, g, std::nullopt, slot);
      }
      break;
    case Phase::extra_draws:
      consider(Act::extra_draw, std::nullopt, std::nullopt, -1);
      consider(Act::done, std::nullopt, std::nullopt, -1);
      break;
    case Phase::over:
      break;
  }
}

std::vector<Json> SilkRoadState::game_legal_actions(int player) const {
  std::vector<Json> out;
  for_each_legal(player, [&](const Parsed& a) { out.push_back(action_json(a)); });
  return out;
}

std::string SilkRoadState::game_legal_actions_json(int player) const {
  std::string out = "[";
  for_each_legal(player, [&](const Parsed& a) {
    if (out.size() > 1) out += ',';
    append_action_text(out, a);
  });
  out += ']';
  return out;
}

// ---- Applying -----------------------------------------------------------------------------------

bool SilkRoadState::could_take_back(int, const Parsed& a) const {
  switch (a.act) {
    case Act::exchange: case Act::end_phase: case Act::buy: case Act::pass: case Act::play:
      return true;
    default:
      return false;  // loading hands the decision on; a draw or the scoring shows cards and incomes
  }
}

bool SilkRoadState::may_take_back(int, const Parsed&, const Data& before) const {
  if (d_.turn != before.turn) return false;  // only within the turn: the next one has begun
  // A card played that scores at once (the last of its good in hand) tells everyone their income alone: the core
  // refuses that step for those private events.
  return d_.deck.size() == before.deck.size();
}

std::vector<Event> SilkRoadState::play(int player, const Parsed& a) {
  std::vector<Event> events;
  Seat& seat = d_.seats[player];
  if (a.act == Act::load) {
    const int ship = static_cast<int>(seat.ships.size());
    seat.ships.push_back(*a.good);
    --d_.supply[gi(*a.good)];
    ++d_.loads;
    events.push_back(Event::public_event({{"type", "load"},
                                          {"player", player},
                                          {"ship", ship},
                                          {"good", good_name(*a.good)},
                                          {"supply", d_.supply[gi(*a.good)]}}));
    if (d_.loads == kStartingShips * d_.players) start_turn(d_.start_player, events);
  } else if (a.act == Act::exchange) {
    const auto i = static_cast<std::size_t>(a.index);
    const Good from = seat.ships[i];
    ++d_.supply[gi(from)];
    --d_.supply[gi(*a.good)];
    seat.ships[i] = *a.good;
    if (d_.phase == Phase::phase1) d_.exchanges_left = 1 + seat.porters;
    --d_.exchanges_left;
    events.push_back(Event::public_event({{"type", "exchange"},
                                          {"player", player},
                                          {"ship", i},
                                          {"from", good_name(from)},
                                          {"good", good_name(*a.good)},
                                          {"exchanges_left", d_.exchanges_left}}));
    if (d_.exchanges_left > 0 && can_exchange(player)) {
      if (d_.phase == Phase::phase1) {
        d_.phase = Phase::exchanging;
        events.push_back(Event::public_event(
            {{"type", "phase"}, {"player", player}, {"phase", "exchanging"}, {"exchanges_left", d_.exchanges_left}}));
      }
    } else {
      enter_phase2(events);
    }
  } else if (a.act == Act::end_phase) {
    events.push_back(Event::public_event({{"type", "end_phase"}, {"player", player}}));
    enter_phase2(events);
  } else if (a.act == Act::buy) {
    const Card c = *a.card;
    seat.coins -= card_cost(c);
    --d_.stock[ci(c)];
    Json detail = {{"type", "buy"},
                   {"player", player},
                   {"card", card_name(c)},
                   {"cost", card_cost(c)},
                   {"left", d_.stock[ci(c)]}};
    switch (c) {
      case Card::ship:
        seat.ships.push_back(*a.good);
        --d_.supply[gi(*a.good)];
        detail["ship"] = seat.ships.size() - 1;
        detail["good"] = good_name(*a.good);
        detail["supply"] = d_.supply[gi(*a.good)];
        break;
      case Card::exchange: ++seat.exchanges; break;
      case Card::porter: ++seat.porters; break;
      case Card::license: ++seat.licenses; break;
    }
    Json redacted = detail;  // everyone sees the purchase; only the buyer sees their coins
    detail["coins"] = seat.coins;
    events.push_back(Event::private_event(player, std::move(detail), std::move(redacted)));
    if (c == Card::porter && can_exchange(player)) {
      // The Porter just bought gives one exchange at once (the phase's action was the purchase).
      d_.phase = Phase::exchanging;
      d_.exchanges_left = 1;
      events.push_back(Event::public_event(
          {{"type", "phase"}, {"player", player}, {"phase", "exchanging"}, {"exchanges_left", 1}}));
    } else {
      enter_phase2(events);
    }
  } else if (a.act == Act::pass) {
    events.push_back(Event::public_event({{"type", "pass"}, {"player", player}}));
    enter_phase2(events);
  } else if (a.act == Act::play) {
    const auto slot = static_cast<std::size_t>(a.index);
    const Good covered = d_.market[slot].back();
    d_.market[slot].push_back(*a.good);
    --seat.hand[gi(*a.good)];
    d_.played = *a.good;
    ++d_.played_count;
    events.push_back(Event::public_event({{"type", "play"},
                                          {"player", player},
                                          {"good", good_name(*a.good)},
                                          {"slot", slot},
                                          {"covered", good_name(covered)},
                                          {"hand_count", seat.hand_count()}}));
    // With no card of that good left there is nothing more to decide: score at once.
    if (seat.hand[gi(*a.good)] == 0) score(events);
  } else if (a.act == Act::score) {
    score(events);
  } else if (a.act == Act::draw) {
    const int n = std::min<int>(kDrawCount, static_cast<int>(d_.deck.size()));
    Counts drawn{};
    for (int i = 0; i < n; ++i) ++drawn[gi(draw_card(player))];
    Json redacted = {{"type", "draw"},
                     {"player", player},
                     {"count", n},
                     {"hand_count", seat.hand_count()},
                     {"deck_count", d_.deck.size()}};
    Json detail = redacted;
    detail["cards"] = counts_json(drawn, true);
    events.push_back(Event::private_event(player, std::move(detail), std::move(redacted)));
    if (d_.deck.empty()) {
      finish(events);
    } else {
      after_phase2(events);
    }
  } else if (a.act == Act::extra_draw) {
    const Good g = draw_card(player);
    --d_.extra_left;
    Json redacted = {{"type", "extra_draw"},
                     {"player", player},
                     {"count", 1},
                     {"hand_count", seat.hand_count()},
                     {"deck_count", d_.deck.size()},
                     {"extra_draws_left", d_.extra_left}};
    Json detail = redacted;
    detail["good"] = good_name(g);
    events.push_back(Event::private_event(player, std::move(detail), std::move(redacted)));
    if (d_.deck.empty()) {
      finish(events);
    } else if (d_.extra_left == 0) {
      end_turn(events);
    }
  } else {  // done
    events.push_back(Event::public_event({{"type", "done"}, {"player", player}}));
    end_turn(events);
  }
  return events;
}

Good SilkRoadState::draw_card(int player) {
  const Good g = d_.deck.back();
  d_.deck.pop_back();
  ++d_.seats[player].hand[gi(g)];
  return g;
}

void SilkRoadState::start_turn(int player, std::vector<Event>& events) {
  d_.active = player;
  d_.phase = Phase::phase1;
  ++d_.turn;
  d_.exchanges_left = 0;
  d_.played.reset();
  d_.played_count = 0;
  d_.extra_left = 0;
  events.push_back(Event::public_event({{"type", "turn"}, {"player", player}, {"turn", d_.turn}}));
}

void SilkRoadState::enter_phase2(std::vector<Event>& events) {
  d_.phase = Phase::phase2;
  d_.exchanges_left = 0;
  events.push_back(Event::public_event({{"type", "phase"}, {"player", d_.active}, {"phase", "phase2"}}));
}

void SilkRoadState::after_phase2(std::vector<Event>& events) {
  const int exchanges = d_.seats[d_.active].exchanges;
  if (exchanges == 0) {
    end_turn(events);
    return;
  }
  d_.phase = Phase::extra_draws;
  d_.extra_left = exchanges;
  events.push_back(Event::public_event(
      {{"type", "phase"}, {"player", d_.active}, {"phase", "extra_draws"}, {"extra_draws_left", exchanges}}));
}

void SilkRoadState::end_turn(std::vector<Event>& events) { start_turn((d_.active + 1) % d_.players, events); }

void SilkRoadState::score(std::vector<Event>& events) {
  const Good g = *d_.played;
  const int n = visible(g);
  events.push_back(Event::public_event({{"type", "scoring"},
                                        {"player", d_.active},
                                        {"good", good_name(g)},
                                        {"count", n},
                                        {"played", d_.played_count}}));
  for (int p = 0; p < d_.players; ++p) {
    Seat& seat = d_.seats[p];
    const int ships = ships_with(p, g);
    const int base = n * ships;
    if (base == 0) continue;
    const int bonus = kLicenseBonus * seat.licenses;
    seat.coins += base + bonus;
    // Income is secret: the earner sees it, nobody else sees anything.
    events.push_back(Event::private_event(p,
                                          {{"type", "income"},
                                           {"player", p},
                                           {"good", good_name(g)},
                                           {"ships", ships},
                                           {"base", base},
                                           {"license_bonus", bonus},
                                           {"amount", base + bonus},
                                           {"coins", seat.coins}},
                                          nullptr));
  }
  after_phase2(events);
}

void SilkRoadState::finish(std::vector<Event>& events) {
  d_.phase = Phase::over;
  d_.exchanges_left = 0;
  d_.played.reset();
  d_.played_count = 0;
  d_.extra_left = 0;
  events.push_back(Event::public_event({{"type", "game_over"}, {"result", result()}}));
}

Json SilkRoadState::result() const {
  if (d_.phase != Phase::over) return nullptr;
  std::vector<int> coins(d_.players);
  for (int p = 0; p < d_.players; ++p) coins[p] = d_.seats[p].coins;
  const int best = *std::max_element(coins.begin(), coins.end());
  std::vector<int> order(d_.players);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return coins[a] > coins[b]; });
  Json ranking = Json::array();
  Json winners = Json::array();
  for (int p : order) {
    const int rank = 1 + static_cast<int>(std::count_if(coins.begin(), coins.end(), [&](int c) { return c > coins[p]; }));
    ranking.push_back({{"player", p}, {"rank", rank}, {"coins", coins[p]}});
    if (coins[p] == best) winners.push_back(p);
  }
  return {{"ranking", ranking}, {"winners", winners}};
}

// ---- Views --------------------------------------------------------------------------------------

Json SilkRoadState::view(const Viewer& viewer) const {
  const bool full = viewer.kind == Viewer::Kind::full;
  const bool over = d_.phase == Phase::over;
  Json seats = Json::array();
  for (int p = 0; p < d_.players; ++p) {
    const Seat& s = d_.seats[p];
    const bool own = full || viewer.is_player(p);
    seats.push_back({{"hand_count", s.hand_count()},
                     {"hand", own ? counts_json(s.hand, false) : Json(nullptr)},
                     {"coins", own || over ? Json(s.coins) : Json(nullptr)},
                     {"ships", ships_json(s.ships)},
                     {"exchange", s.exchanges},
                     {"porter", s.porters},
                     {"license", s.licenses}});
  }
  Json market = Json::array();
  Json covered = Json::array();
  for (const auto& stack : d_.market) {
    market.push_back(good_name(stack.back()));
    covered.push_back(stack.size() - 1);
  }
  Json stock = Json::object();
  Json costs = Json::object();
  for (Card c : kAllCards) {
    stock[card_name(c)] = d_.stock[ci(c)];
    costs[card_name(c)] = card_cost(c);
  }
  int exchanges_left = 0;
  if (d_.phase == Phase::phase1) exchanges_left = 1 + d_.seats[d_.active].porters;
  if (d_.phase == Phase::exchanging) exchanges_left = d_.exchanges_left;
  Json v = {{"game", "silkroad"},
            {"players", d_.players},
            {"version", d_.version},
            {"phase", phase_name(d_.phase)},
            {"start_player", d_.start_player},
            {"active", d_.phase == Phase::loading ? loader() : d_.active},
            {"to_move", to_move()},
            {"turn", d_.turn},
            {"deck_count", d_.deck.size()},
            {"market", market},
            {"covered", covered},
            {"supply", counts_json(d_.supply, false)},
            {"stock", stock},
            {"costs", costs},
            {"exchanges_left", exchanges_left},
            {"played_good", d_.played ? Json(good_name(*d_.played)) : Json(nullptr)},
            {"played_count", d_.played_count},
            {"extra_draws_left", d_.phase == Phase::extra_draws ? d_.extra_left : 0},
            {"seats", seats},
            {"result", result()}};
  if (full) {
    Json deck = Json::array();  // in draw order: the next card first
    for (auto it = d_.deck.rbegin(); it != d_.deck.rend(); ++it) deck.push_back({{"good", good_name(*it)}});
    v["deck"] = deck;
  }
  return v;
}

void SilkRoadState::rig_deck(const std::vector<Good>& draws_in_order) {
  d_.deck.assign(draws_in_order.rbegin(), draws_in_order.rend());
}

GameInfo game_info() {
  GameInfo info;
  info.id = "silkroad";
  info.display_name = "Maritime Silk Road";
  info.min_players = 2;
  info.max_players = 4;
  info.create = [](const Json&, int players, Seed seed) -> std::unique_ptr<State> {
    return std::make_unique<SilkRoadState>(players, seed);
  };
  return info;
}

}  // namespace emporium::engine::silkroad
