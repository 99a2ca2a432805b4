// Merkator's bot. Nothing is private to a player; what nobody sees is the order of every pile (the contract
// piles below their top card, the discards, the bonus and building draw piles) and the letters of the time
// counters not yet turned. A sampled state copies everything the view shows and deals the rest at random:
// every contract not held, sold or on top goes below the top of its value's pile, every card not owned or
// face up into its draw pile, and the letters not accounted for onto the face-down counters.
//
// Games are long (hundreds of small decisions), so the search plays a turn or two on with a greedy policy
// and scores the position with an estimate: contracts held (as the final scoring counts them), buildings
// as they would score now, progress of the goods towards the contracts held, and coins, time and cards
// by what they are likely to bring in the turns left.
#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

#include "merkator/bot.hpp"
#include "merkator/merkator.hpp"

namespace emporium::engine::merkator {
namespace {

const Data& data_of(const State& state) { return static_cast<const MerkatorState&>(state).data(); }

int index_or(std::optional<int> i) { return i ? *i : -1; }

Phase phase_from(const std::string& name) {
  for (int p = 0; p <= static_cast<int>(Phase::over); ++p) {
    if (name == phase_name(static_cast<Phase>(p))) return static_cast<Phase>(p);
  }
  return Phase::over;
}

int column_index(const Catalog& c, const std::string& id) {
  for (std::size_t i = 0; i < c.columns.size(); ++i) {
    if (c.columns[i].id == id) return static_cast<int>(i);
  }
  return -1;
}

std::vector<int> contract_ids(const Catalog& c, const Json& ids) {
  std::vector<int> out;
  for (const auto& id : ids) out.push_back(index_or(c.contract_index(id.get<std::string>())));
  return out;
}

// ---- Facts about a position ---------------------------------------------------------------------

// Per good: the goods the player's held contracts ask for in all (each contract on its own), less what it has.
std::vector<int> deficits(const Catalog& c, const Seat& seat) {
  std::vector<int> need(c.goods.size(), 0);
  for (int k : seat.contracts) {
    for (const auto& [g, q] : c.contracts[k].goods) need[g] += q;
  }
  for (std::size_t g = 0; g < need.size(); ++g) need[g] = std::max(0, need[g] - seat.goods[g]);
  return need;
}

// Whether `contract` can be paid from `goods`, the supply tile and `time` with 4-for-1 trades.
bool payable(const Catalog& c, const std::vector<int>& goods, const std::vector<int>& supply, int time, int contract) {
  std::vector<int> need(goods.size(), 0);
  for (const auto& [g, q] : c.contracts[contract].goods) need[g] += q;
  std::vector<int> tile = supply;
  int deficit = 0, trades = time / kTradeRate;
  for (std::size_t g = 0; g < need.size(); ++g) {
    if (goods[g] >= need[g]) {
      trades += (goods[g] - need[g]) / kTradeRate;
      continue;
    }
    int missing = need[g] - goods[g];
    int& cubes = tile[c.goods[g].colour];
    const int from_tile = std::min(cubes, missing);
    cubes -= from_tile;
    deficit += missing - from_tile;
  }
  return trades >= deficit;
}

// Pays `contract` as `payable` would (goods first, then the supply tile, then trades from the largest
// surplus or time). Used only inside the bot's own estimates.
void pay(const Catalog& c, std::vector<int>& goods, std::vector<int>& supply, int& time, int contract) {
  std::vector<int> need(goods.size(), 0);
  for (const auto& [g, q] : c.contracts[contract].goods) need[g] += q;
  int deficit = 0;
  for (std::size_t g = 0; g < need.size(); ++g) {
    const int used = std::min(goods[g], need[g]);
    goods[g] -= used;
    int missing = need[g] - used;
    int& cubes = supply[c.goods[g].colour];
    const int from_tile = std::min(cubes, missing);
    cubes -= from_tile;
    deficit += missing - from_tile;
  }
  while (deficit-- > 0) {
    const auto most = std::max_element(goods.begin(), goods.end());
    if (*most >= kTradeRate) {
      *most -= kTradeRate;
    } else {
      time = std::max(0, time - kTradeRate);
    }
  }
}

// Points for a set of contract values as the final scoring counts them.
double contract_points(const Catalog& c, std::vector<int> values, bool will_sell) {
  std::sort(values.rbegin(), values.rend());
  double pts = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (static_cast<int>(i) < c.contract_spaces) {
      pts += values[i];
    } else {
      // Beyond the spaces: half at the end, or sold for coins at the next investment.
      pts += will_sell ? values[i] * 0.6 : values[i] / 2;
    }
  }
  return pts;
}

// Every player's goods with the supply tile placed: each cube as the colour's good the player holds fewer of
// (which is what most buildings want: more distinct goods, more pairs).
std::vector<std::vector<int>> goods_with_supply(const Data& d) {
  const Catalog& c = *d.catalog;
  std::vector<std::vector<int>> out;
  for (const Seat& s : d.seats) {
    std::vector<int> g = s.goods;
    for (std::size_t col = 0; col < c.colours.size(); ++col) {
      for (int k = 0; k < s.supply[col]; ++k) {
        const int a = c.colours[col].goods[0], b = c.colours[col].goods[1];
        ++g[g[a] <= g[b] ? a : b];
      }
    }
    out.push_back(std::move(g));
  }
  return out;
}

// Turns `player` has still to begin, counting the one in progress when it is theirs (roughly, before the last
// round: from the counters left on the chart).
double turns_left(const Data& d, int player) {
  const int n = d.players;
  if (d.last_round) {
    const int ahead = (player - d.active + n) % n;
    double t = (ahead >= 1 && ahead <= d.turns_left) ? 1.0 : 0.0;
    if (player == d.active && (d.phase == Phase::investment || d.phase == Phase::travel)) t += 0.7;
    return t;
  }
  int remaining = 0;
  for (const auto& row : d.chart) remaining += static_cast<int>(row.size());
  return 1.0 + remaining / (0.9 * n);
}

// What each good is worth to `player` as one more cube: much when a held contract lacks it.
std::vector<double> good_worth(const Catalog& c, const Seat& seat) {
  const auto def = deficits(c, seat);
  std::vector<double> w(c.goods.size(), 0.15);
  for (std::size_t g = 0; g < w.size(); ++g) {
    if (def[g] > 0) w[g] = 1.0;
  }
  return w;
}

// How far the goods go towards the contracts held: the most valuable first, each good used once.
double progress(const Catalog& c, const Seat& seat) {
  std::vector<int> order = seat.contracts;
  std::sort(order.begin(), order.end(), [&](int a, int b) { return c.contracts[a].value > c.contracts[b].value; });
  std::vector<int> goods = seat.goods;
  std::vector<int> tile = seat.supply;
  double out = 0;
  for (int k : order) {
    const Contract& ct = c.contracts[k];
    if (ct.goods.empty()) continue;
    int total = 0;
    double covered = 0;
    for (const auto& [g, q] : ct.goods) {
      total += q;
      const int have = std::min(goods[g], q);
      goods[g] -= have;
      covered += have;
      int& cubes = tile[c.goods[g].colour];
      const int from_tile = std::min(cubes, q - have);
      cubes -= from_tile;
      covered += 0.85 * from_tile;
    }
    const double frac = covered / total;
    out += (ct.value + 1) * frac * frac;
  }
  return out;
}

// ---- The quick policy ---------------------------------------------------------------------------

Json act(const char* type) { return Json{{"type", type}}; }

double noise(Rng& rng, double scale) { return scale * static_cast<double>(rng.below(1000)) / 1000.0; }

// The cubes `n` of colour `col` split for the player: how many become the colour's first good.
int best_split(const Catalog& c, const std::vector<int>& def, int col, int n) {
  const int a = c.colours[col].goods[0], b = c.colours[col].goods[1];
  if (n == 1) return def[a] >= def[b] ? 1 : 0;
  int best = 1;
  double best_score = -1;
  for (int k = 1; k <= n - 1; ++k) {
    const double score = std::min(k, def[a]) + std::min(n - k, def[b]) - 0.01 * std::abs(2 * k - n);
    if (score > best_score) {
      best_score = score;
      best = k;
    }
  }
  return best;
}

// What `seat`'s own cards bring at `l`: the bonus cards' goods there (as the traveller or as a joiner), then
// the contracts for `l` it can pay with `goods`, its supply tile and `time`, the most valuable first, each at
// its value plus `per_fulfilment`.
double visit_worth(const Catalog& c, const Seat& seat, int l, const std::vector<double>& worth, std::vector<int> goods,
                   int time, bool joiner, double per_fulfilment) {
  double score = 0;
  for (int bc : seat.bonus) {
    const BonusCard& card = c.bonus_cards[bc];
    if (card.location != l) continue;
    const int n = joiner ? card.joiner : card.active;
    goods[card.good] += n;
    score += worth[card.good] * n;
  }
  std::vector<int> here;
  for (int k : seat.contracts) {
    if (c.contracts[k].destination == l) here.push_back(k);
  }
  std::sort(here.begin(), here.end(), [&](int a, int b) { return c.contracts[a].value > c.contracts[b].value; });
  std::vector<int> tile = seat.supply;
  for (int k : here) {
    if (!payable(c, goods, tile, time, k)) continue;
    pay(c, goods, tile, time, k);
    score += c.contracts[k].value + per_fulfilment;
  }
  return score;
}

// What travelling to `l` is worth to the active player now (goods, fulfilments there, time).
double trip_worth(const Data& d, int player, int l, Rng& rng) {
  const Catalog& c = *d.catalog;
  const Seat& seat = d.seats[player];
  const Location& loc = c.locations[l];
  const int cost = std::max(0, -loc.time);
  std::vector<int> goods = seat.goods;
  const auto def = deficits(c, seat);
  const auto worth = good_worth(c, seat);
  double score = 0;
  if (loc.major && d.cubes[l] > 0) {
    const int n = d.cubes[l];
    const int a = c.colours[loc.colour].goods[0], b = c.colours[loc.colour].goods[1];
    const int k = n == 2 ? 1 : best_split(c, def, loc.colour, n);
    goods[a] += k;
    goods[b] += n - k;
    score += worth[a] * std::min(k, std::max(def[a], 0)) + 0.15 * std::max(0, k - def[a]);
    score += worth[b] * std::min(n - k, std::max(def[b], 0)) + 0.15 * std::max(0, n - k - def[b]);
  }
  score += visit_worth(c, seat, l, worth, std::move(goods), seat.time - cost + std::max(0, loc.time), false, 2.5);
  const double time_value = d.last_round ? 0.05 : 0.4;
  score += time_value * (std::max(0, loc.time) - cost);
  return score + noise(rng, 0.8);
}

Json quick_investment(const Data& d, int player, Rng& rng) {
  const Catalog& c = *d.catalog;
  const Seat& seat = d.seats[player];
  if (!d.last_round && static_cast<int>(seat.contracts.size()) > c.setup.max_contracts) {
    // Sell the cheapest contract, the least advanced among equals.
    int pick = seat.contracts.front();
    double pick_score = 1e9;
    const auto def = deficits(c, seat);
    for (int k : seat.contracts) {
      double have = 0, total = 0;
      for (const auto& [g, q] : c.contracts[k].goods) {
        total += q;
        have += std::min(q, seat.goods[g]);
      }
      const double score = c.contracts[k].value + (total > 0 ? have / total : 1.0) + noise(rng, 0.3);
      if (score < pick_score) {
        pick_score = score;
        pick = k;
      }
    }
    return {{"type", "sell"}, {"contract", c.contracts[pick].id}};
  }
  const double turns = turns_left(d, player);
  const bool must_spend = seat.coins > c.setup.max_coins;
  // Buildings by their points now (the supply tile placed), against their cost.
  const auto goods = goods_with_supply(d);
  double best = must_spend ? -1e9 : 0.0;
  Json choice = act("end_investment");
  for (int b : d.building_display) {
    const Building& bd = c.buildings[b];
    if (bd.cost > seat.coins) continue;
    const double pts = building_points_with(d, b, player, goods) + std::min(2.0, turns / 4.0);
    const double score = pts - 0.6 * bd.cost + noise(rng, 1.0);
    if (score > best) {
      best = score;
      choice = {{"type", "buy"}, {"card", bd.id}};
    }
  }
  if (turns >= 4) {
    const auto def = deficits(c, seat);
    for (int b : d.bonus_display) {
      const BonusCard& card = c.bonus_cards[b];
      if (card.cost > seat.coins) continue;
      double use = 0.5 + (def[card.good] > 0 ? 1.0 : 0.0);
      for (int k : seat.contracts) use += c.contracts[k].destination == card.location ? 0.5 : 0.0;
      const double score = use * std::min(turns, 8.0) * 0.3 - 0.6 * card.cost + noise(rng, 1.0);
      if (score > best) {
        best = score;
        choice = {{"type", "buy"}, {"card", card.id}};
      }
    }
  }
  return choice;
}

Json quick_travel(const Data& d, int player, Rng& rng) {
  const Catalog& c = *d.catalog;
  const Seat& seat = d.seats[player];
  int best = -1;
  double best_score = -1e9;
  for (int l = 0; l < static_cast<int>(c.locations.size()); ++l) {
    if (seat.time < std::max(0, -c.locations[l].time)) continue;
    const double score = trip_worth(d, player, l, rng);
    if (score > best_score) {
      best_score = score;
      best = l;
    }
  }
  return {{"type", "travel"}, {"location", c.locations[std::max(best, 0)].id}};
}

Json quick_take(const Data& d, int player) {
  const Catalog& c = *d.catalog;
  const int col = c.locations[d.location].colour;
  const auto def = deficits(c, d.seats[player]);
  const int n = d.take_cubes;
  const int a = c.colours[col].goods[0], b = c.colours[col].goods[1];
  if (n == 1) return {{"type", "take"}, {"good", c.goods[def[a] >= def[b] ? a : b].id}, {"count", 1}};
  return {{"type", "take"}, {"good", c.goods[a].id}, {"count", best_split(c, def, col, n)}};
}

// What losing `count` goods from `column` costs `player`, in goods of little use first.
double loss_cost(const Data& d, int player, int column, int count) {
  const Catalog& c = *d.catalog;
  const Seat& seat = d.seats[player];
  const auto worth = good_worth(c, seat);
  std::vector<double> lost;
  for (int g : c.columns[column].goods) {
    for (int k = 0; k < seat.goods[g]; ++k) lost.push_back(worth[g]);
  }
  std::sort(lost.begin(), lost.end());
  double cost = 0;
  for (int k = 0; k < count && k < static_cast<int>(lost.size()); ++k) cost += lost[k] + 0.1;
  return cost;
}

// A letter's harm to `player` against the others'.
double letter_harm(const Data& d, int player, int column, int count) {
  double mine = loss_cost(d, player, column, count), others = 0;
  for (int p = 0; p < d.players; ++p) {
    if (p != player) others += loss_cost(d, p, column, count);
  }
  return mine - others / std::max(1, d.players - 1);
}

Json quick_letter(const Data& d, int player, Rng& rng) {
  const Catalog& c = *d.catalog;
  const TimeLetter& now = c.time_chart[d.letter];
  const double keep = letter_harm(d, player, now.column, now.count);
  double next = 0;
  const Counter& first = d.chart[d.next_row].front();
  if (first.known) {
    const TimeLetter& l = c.time_chart[first.letter];
    next = letter_harm(d, player, l.column, l.count);
  } else {
    for (int col = 0; col < static_cast<int>(c.columns.size()); ++col) next += letter_harm(d, player, col, 1);
    next = next / static_cast<double>(c.columns.size()) * 1.15;  // a doubled letter now and then
  }
  return act(keep <= next + noise(rng, 0.2) - 0.1 ? "keep_letter" : "next_letter");
}

Json quick_discard(const Data& d, int player, Rng& rng) {
  const Catalog& c = *d.catalog;
  const Seat& seat = d.seats[player];
  const auto def = deficits(c, seat);
  int best = -1;
  double best_score = -1e9;
  for (int g : c.columns[d.loss_column].goods) {
    if (seat.goods[g] == 0) continue;
    // Keep what contracts lack; among the rest, give up the most plentiful.
    const double score = seat.goods[g] - 3.0 * (def[g] > 0 ? 1 : 0) + noise(rng, 0.2);
    if (score > best_score) {
      best_score = score;
      best = g;
    }
  }
  return {{"type", "discard"}, {"good", c.goods[std::max(best, 0)].id}};
}

// The contracts step (the active player or a joiner): fulfil what can be paid, the most valuable first; move
// supply-tile cubes and trade for a contract that can be paid that way; otherwise done.
Json quick_contracts(const Data& d, int player) {
  const Catalog& c = *d.catalog;
  const Seat& seat = d.seats[player];
  std::vector<int> here;
  for (int k : seat.contracts) {
    if (c.contracts[k].destination == d.location &&
        std::find(seat.fulfilled.begin(), seat.fulfilled.end(), k) == seat.fulfilled.end()) {
      here.push_back(k);
    }
  }
  std::sort(here.begin(), here.end(), [&](int a, int b) { return c.contracts[a].value > c.contracts[b].value; });
  for (int k : here) {
    const Contract& ct = c.contracts[k];
    bool direct = true;
    for (const auto& [g, q] : ct.goods) direct = direct && seat.goods[g] >= q;
    if (direct) return {{"type", "fulfil"}, {"contract", ct.id}};
  }
  const auto worth = good_worth(c, seat);
  for (int k : here) {
    const Contract& ct = c.contracts[k];
    if (!payable(c, seat.goods, seat.supply, seat.time, k)) continue;
    std::vector<int> need(c.goods.size(), 0);
    for (const auto& [g, q] : ct.goods) need[g] += q;
    // A missing good from the supply tile first.
    for (const auto& [g, q] : ct.goods) {
      if (seat.goods[g] < need[g] && seat.supply[c.goods[g].colour] > 0) return {{"type", "supply"}, {"good", c.goods[g].id}};
    }
    for (const auto& [g, q] : ct.goods) {
      if (seat.goods[g] >= need[g]) continue;
      // Trade away the least useful good with 4 to spare, else time.
      int give = -1;
      double give_worth = 1e9;
      for (int x = 0; x < static_cast<int>(c.goods.size()); ++x) {
        if (x == g || seat.goods[x] - need[x] < kTradeRate) continue;
        const double w = worth[x] - 0.01 * seat.goods[x];
        if (w < give_worth) {
          give_worth = w;
          give = x;
        }
      }
      if (give >= 0) return {{"type", "trade"}, {"give", c.goods[give].id}, {"good", c.goods[g].id}};
      if (seat.time >= kTradeRate) return {{"type", "trade"}, {"give", "time"}, {"good", c.goods[g].id}};
    }
  }
  return act("done");
}

Json quick_join(const Data& d, int player, Rng& rng) {
  const Catalog& c = *d.catalog;
  const Seat& seat = d.seats[player];
  const int l = d.location;
  const int cost = c.locations[l].major ? c.join_cost_major : c.join_cost_minor;
  double score = visit_worth(c, seat, l, good_worth(c, seat), seat.goods, seat.time - cost, true, 2.0);
  // The time paid goes to the active player: it counts twice against a rival.
  const double time_value = d.last_round ? 0.3 : 0.5;
  score -= cost * time_value * (d.players == 2 ? 2.0 : 1.5);
  return act(score + noise(rng, 0.5) > 0.6 ? "join" : "decline");
}

Json quick(const Data& d, int player, Rng& rng) {
  switch (d.phase) {
    case Phase::investment: return quick_investment(d, player, rng);
    case Phase::travel: return quick_travel(d, player, rng);
    case Phase::take: return quick_take(d, player);
    case Phase::letter: return quick_letter(d, player, rng);
    case Phase::loss: return quick_discard(d, player, rng);
    case Phase::contracts: return quick_contracts(d, player);
    case Phase::joining: return quick_join(d, player, rng);
    case Phase::over: break;
  }
  return act("done");
}

// ---- The bot ------------------------------------------------------------------------------------

// Deals `letters` at random onto the time chart's counters still without one (letter -1), row by row from the top.
void deal_letters(std::vector<std::vector<Counter>>& chart, std::vector<int> letters, std::size_t alphabet, Rng& rng) {
  rng.shuffle(letters);
  std::size_t next = 0;
  for (auto& row : chart) {
    for (auto& counter : row) {
      if (counter.letter >= 0) continue;
      counter.letter = next < letters.size() ? letters[next++] : static_cast<int>(rng.below(alphabet));
    }
  }
}

// Shuffles what nobody has seen: all of `cards`, or all but the top (back()) of a face-up pile.
void shuffle_unseen(std::vector<int>& cards, bool top_shown, Rng& rng) {
  const auto end = cards.end() - (top_shown && !cards.empty() ? 1 : 0);
  std::sort(cards.begin(), end);  // so that only which cards are there counts, not their old order
  std::vector<int> unseen(cards.begin(), end);
  rng.shuffle(unseen);
  std::copy(unseen.begin(), unseen.end(), cards.begin());
}

class MerkatorBot final : public bot::GameBot {
 public:
  std::unique_ptr<State> sample(const Json& view, int, Rng& rng) const override {
    auto catalog = installed_catalog();
    const Catalog& c = *catalog;
    const int players = view.at("players").get<int>();
    auto state = std::make_unique<MerkatorState>(catalog, players, rng.next());
    Data& d = state->data_for_testing();
    const int ng = static_cast<int>(c.goods.size());
    d.phase = phase_from(view.at("phase").get<std::string>());
    d.start_player = view.at("start_player").get<int>();
    d.active = view.at("active").get<int>();
    d.turn = view.at("turn").get<int>();
    d.version = view.at("version").get<std::uint64_t>();
    const Json& to_move = view.at("to_move");
    d.decider = to_move.empty() ? -1 : to_move.at(0).get<int>();
    d.location = view.at("location").is_null() ? -1 : index_or(c.location_index(view.at("location").get<std::string>()));
    d.cubes.assign(c.locations.size(), 0);
    for (const auto& [id, n] : view.at("cubes").items()) d.cubes[index_or(c.location_index(id))] = n.get<int>();

    // Seats: everything about the players is public.
    std::vector<bool> seen_contract(c.contracts.size(), false), seen_bonus(c.bonus_cards.size(), false),
        seen_building(c.buildings.size(), false);
    d.seats.assign(players, Seat{});
    for (int p = 0; p < players; ++p) {
      const Json& v = view.at("seats").at(p);
      Seat& s = d.seats[p];
      s.goods.assign(ng, 0);
      for (const auto& [id, n] : v.at("goods").items()) s.goods[index_or(c.good_index(id))] = n.get<int>();
      s.supply.assign(c.colours.size(), 0);
      for (const auto& [id, n] : v.at("supply").items()) s.supply[index_or(c.colour_index(id))] = n.get<int>();
      s.contracts = contract_ids(c, v.at("contracts"));
      s.fulfilled = contract_ids(c, v.at("fulfilled"));
      for (const auto& id : v.at("bonus_cards")) s.bonus.push_back(index_or(c.bonus_index(id.get<std::string>())));
      for (const auto& id : v.at("buildings")) s.buildings.push_back(index_or(c.building_index(id.get<std::string>())));
      s.coins = v.at("coins").get<int>();
      s.time = v.at("time").get<int>();
      for (int k : s.contracts) seen_contract[k] = true;
      for (int b : s.bonus) seen_bonus[b] = true;
      for (int b : s.buildings) seen_building[b] = true;
    }

    // Contracts: the sold ones are listed; each pile shows its top; the rest lies below the tops, shuffled.
    d.discards = contract_ids(c, view.at("discards"));
    for (int k : d.discards) seen_contract[k] = true;
    const Json& piles = view.at("contract_piles");
    std::vector<int> tops(c.values.size(), -1);
    for (std::size_t v = 0; v < c.values.size(); ++v) {
      const Json& top = piles.at(v).at("top");
      if (!top.is_null()) tops[v] = index_or(c.contract_index(top.get<std::string>()));
      if (tops[v] >= 0) seen_contract[tops[v]] = true;
    }
    d.piles.assign(c.values.size(), {});
    for (std::size_t k = 0; k < c.contracts.size(); ++k) {
      if (!seen_contract[k]) d.piles[c.value_index(c.contracts[k].value)].push_back(static_cast<int>(k));
    }
    for (std::size_t v = 0; v < c.values.size(); ++v) {
      rng.shuffle(d.piles[v]);
      if (tops[v] >= 0) d.piles[v].push_back(tops[v]);
    }

    // Cards: the face-up ones are shown; the draw piles hold the rest, in an unknown order.
    d.bonus_display.clear();
    d.building_display.clear();
    for (const auto& id : view.at("bonus_display")) {
      d.bonus_display.push_back(index_or(c.bonus_index(id.get<std::string>())));
      seen_bonus[d.bonus_display.back()] = true;
    }
    for (const auto& id : view.at("building_display")) {
      d.building_display.push_back(index_or(c.building_index(id.get<std::string>())));
      seen_building[d.building_display.back()] = true;
    }
    d.bonus_pile.clear();
    d.building_pile.clear();
    for (std::size_t b = 0; b < c.bonus_cards.size(); ++b) {
      if (!seen_bonus[b]) d.bonus_pile.push_back(static_cast<int>(b));
    }
    for (std::size_t b = 0; b < c.buildings.size(); ++b) {
      if (!seen_building[b]) d.building_pile.push_back(static_cast<int>(b));
    }
    rng.shuffle(d.bonus_pile);
    rng.shuffle(d.building_pile);

    // The time chart: the letters seen keep their places; the counters face down get the letters not
    // accounted for, at random.
    std::vector<bool> used_letter(c.time_chart.size(), false);
    auto take_letter = [&](const std::string& name) {
      int any = -1;
      for (std::size_t i = 0; i < c.time_chart.size(); ++i) {
        if (c.letter_name(c.time_chart[i]) != name) continue;
        if (!used_letter[i]) {
          used_letter[i] = true;
          return static_cast<int>(i);
        }
        if (any < 0) any = static_cast<int>(i);
      }
      return std::max(any, 0);
    };
    const Json& rows = view.at("chart").at("rows");
    d.chart.assign(rows.size(), {});
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const int count = rows[r].at("count").get<int>();
      d.chart[r].assign(static_cast<std::size_t>(count), Counter{-1, false});
      for (const auto& [pos, name] : rows[r].at("known").items()) {
        const int i = std::stoi(pos) - (c.setup.chart_row_length - count);
        d.chart[r][i] = Counter{take_letter(name.get<std::string>()), true};
      }
    }
    d.letter = view.at("letter").is_null() ? -1 : take_letter(view.at("letter").get<std::string>());
    std::vector<int> unused;
    for (std::size_t i = 0; i < c.time_chart.size(); ++i) {
      if (!used_letter[i]) unused.push_back(static_cast<int>(i));
    }
    deal_letters(d.chart, std::move(unused), c.time_chart.size(), rng);

    // A trip in progress.
    d.take_cubes = d.phase == Phase::take ? view.at("take").at("cubes").get<int>() : 0;
    d.next_row = view.at("next_row").is_null() ? -1 : view.at("next_row").get<int>();
    d.loss_need.assign(players, 0);
    d.loss_column = -1;
    if (d.phase == Phase::loss) {
      d.loss_column = column_index(c, view.at("loss").at("column").get<std::string>());
      d.loss_need = view.at("loss").at("need").get<std::vector<int>>();
    }
    d.joiner_step = 0;
    if ((d.phase == Phase::joining || d.phase == Phase::contracts) && d.decider != d.active) {
      d.joiner_step = (d.decider - d.active + players) % players;
    }
    // Counters still to gain on this trip: only a trip gaining two can have one left when a letter stops it,
    // and the view does not say whether the letter came with the first counter or the second.
    d.gain_left = 0;
    if ((d.phase == Phase::letter || d.phase == Phase::loss) && d.location >= 0 && c.locations[d.location].time >= 2) {
      d.gain_left = static_cast<int>(rng.below(static_cast<std::uint64_t>(c.locations[d.location].time)));
    }

    d.trigger = view.at("trigger").is_null() ? std::string() : view.at("trigger").get<std::string>();
    d.last_round = view.at("last_round").get<bool>();
    d.turns_left = view.at("turns_left").get<int>();
    d.scoring = view.at("scoring");
    return state;
  }

  std::unique_ptr<State> reseed(const State& state, Seed seed) const override {
    auto out = std::make_unique<MerkatorState>(static_cast<const MerkatorState&>(state));
    if (state.is_over()) return out;
    Data& d = out->data_for_testing();
    Rng rng(seed);
    d.rng = Rng(rng.next());  // the reshuffles of sold contracts into empty piles
    for (auto& pile : d.piles) shuffle_unseen(pile, true, rng);
    shuffle_unseen(d.bonus_pile, false, rng);
    shuffle_unseen(d.building_pile, false, rng);
    // The letters of the counters face down and never shown are dealt again among those counters.
    std::vector<int> letters;
    for (auto& row : d.chart) {
      for (auto& counter : row) {
        if (counter.known) continue;
        letters.push_back(counter.letter);
        counter.letter = -1;
      }
    }
    std::sort(letters.begin(), letters.end());
    deal_letters(d.chart, std::move(letters), d.catalog->time_chart.size(), rng);
    return out;
  }

  std::vector<double> estimate(const State& state) const override {
    const Data& d = data_of(state);
    const Catalog& c = *d.catalog;
    std::vector<double> out(d.players, 0.0);
    if (d.phase == Phase::over) {
      for (int p = 0; p < d.players; ++p) {
        out[p] = d.scoring["players"][p]["total"].get<double>() + 0.01 * d.seats[p].time;
      }
      return out;
    }
    const auto goods = goods_with_supply(d);
    for (int p = 0; p < d.players; ++p) {
      const Seat& seat = d.seats[p];
      const double turns = turns_left(d, p);
      const bool investing_later = turns >= 1.0 || (p == d.active && d.phase == Phase::investment);
      std::vector<int> values;
      for (int k : seat.contracts) values.push_back(c.contracts[k].value);
      double v = contract_points(c, values, !d.last_round);
      for (int b : seat.buildings) v += building_points_with(d, b, p, goods);
      const double future = std::min(1.0, turns / 2.0);
      v += 0.55 * future * progress(c, seat);
      if (investing_later) v += 0.55 * std::min(seat.coins, c.setup.max_coins + 4);
      v += (0.05 + 0.3 * future) * seat.time + 0.01 * seat.time;
      int cubes = 0, tile = 0;
      for (int n : seat.goods) cubes += n;
      for (int n : seat.supply) tile += n;
      v += 0.08 * cubes + 0.15 * tile;
      v += 0.25 * std::min(turns, 8.0) * static_cast<double>(seat.bonus.size()) / 2.0;
      out[p] = v;
    }
    return out;
  }

  double margin_scale(int) const override { return 8.0; }

  Json quick_action(const State& state, int player, Rng& rng) const override {
    return quick(data_of(state), player, rng);
  }

  std::vector<Json> candidates(const State& state, int seat, const std::vector<Json>& legal) const override {
    const Data& d = data_of(state);
    Rng rng(d.version * 7919 + static_cast<std::uint64_t>(seat));
    const Json mine = quick(d, seat, rng);
    std::vector<Json> out;
    auto add = [&](const Json& a) {
      if (std::find(legal.begin(), legal.end(), a) != legal.end() && std::find(out.begin(), out.end(), a) == out.end()) {
        out.push_back(a);
      }
    };
    add(mine);
    for (const auto& a : legal) {
      const std::string& type = a.at("type").get_ref<const std::string&>();
      // Supply-tile moves are worth searching only when the policy makes one (to fulfil a contract).
      if (type == "supply") continue;
      // Trades: the policy's only; selling when not forced: never searched.
      if (type == "trade") continue;
      if (type == "sell" && d.phase == Phase::investment && mine.at("type") != "sell") continue;
      add(a);
    }
    if (out.empty()) return legal;
    if (out.size() > 12) out.resize(12);
    return out;
  }

  // Playouts of a few turns (about two of each player's), fewer with more players as each one costs more:
  // a decision's time stays about the same whatever the count (bench/bot_arena measures it).
  bot::Budget normal_budget(int players) const override {
    return {players <= 2 ? 400 : players == 3 ? 320 : 260, 12 * players + 8};
  }
};

}  // namespace

const bot::GameBot& bot() {
  static const MerkatorBot instance;
  return instance;
}

}  // namespace emporium::engine::merkator
