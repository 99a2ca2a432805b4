// Maritime Silk Road's bot. What a seat cannot see: the other hands (it sees their counts), the other
// players' coins (until the end), the deck, and the cards covered under the market's top cards. A sampled
// state deals every card not in view (66 less the market's tops and the seat's own hand) at random among
// the covered places, the other hands and the deck, and guesses the other players' coins from what they
// own and from what the seat itself has earned. Playouts are cut after a fixed number of actions and
// scored by coins plus an estimate of the income still to come (ships, Licenses, hands).
#include <algorithm>
#include <cmath>

#include "silkroad/bot.hpp"
#include "silkroad/silkroad.hpp"

namespace emporium::engine::silkroad {
namespace {

Phase phase_from(const std::string& name) {
  for (Phase p : {Phase::loading, Phase::phase1, Phase::exchanging, Phase::phase2, Phase::extra_draws}) {
    if (name == phase_name(p)) return p;
  }
  return Phase::over;
}

// ---- Facts about a position, read straight from Data ----------------------------------------------

Counts visible_all(const Data& d) {
  Counts out{};
  for (const auto& stack : d.market) ++out[gi(stack.back())];
  return out;
}

Counts ships_of(const Seat& s) {
  Counts out{};
  for (Good g : s.ships) ++out[gi(g)];
  return out;
}

int spent(const Seat& s) {
  return card_cost(Card::ship) * std::max(0, static_cast<int>(s.ships.size()) - kStartingShips) +
         card_cost(Card::exchange) * s.exchanges + card_cost(Card::porter) * s.porters +
         card_cost(Card::license) * s.licenses;
}

// About how many scorings are still to come: every turn either draws (two cards off the deck) or
// plays, and play turns are about as frequent as draw turns.
double remaining_scorings(const Data& d) { return static_cast<double>(d.deck.size()) * 0.5; }

// What one ship carrying `g` earns per scoring to come, on average.
double ship_rate(const Counts& vis, Good g) { return (vis[gi(g)] + 1.5) * (0.10 + 0.04 * vis[gi(g)]); }

// How much a player's colour `g` is worth holding, for loading, buying and exchanging markers.
double colour_worth(const Data& d, const Counts& vis, int player, Good g) {
  return vis[gi(g)] + 0.8 * d.seats[player].hand[gi(g)];
}

// The gain of a scoring of `g` with `n` visible for `player`.
int income(const Seat& s, const Counts& ships, Good g, int n) {
  const int base = n * ships[gi(g)];
  return base > 0 ? base + kLicenseBonus * s.licenses : 0;
}

// The slot to cover with a card of `g`: one that does not show `g` (so the count grows), preferring the
// goods that pay the others most and `player` least. -1 when every slot shows `g`.
int slot_to_cover(const Data& d, int player, Good g, const std::vector<Counts>& ships, Rng* rng) {
  int best = -1;
  double best_score = -1e9;
  for (int slot = 0; slot < kMarketSlots; ++slot) {
    const Good top = d.market[slot].back();
    if (top == g) continue;
    double score = 0;
    for (int p = 0; p < d.players; ++p) {
      score += (p == player ? -1.5 : 1.0) * ships[p][gi(top)];
    }
    if (rng) score += 0.01 * static_cast<double>(rng->below(50));
    if (score > best_score) {
      best_score = score;
      best = slot;
    }
  }
  return best;
}

// What a scoring by `player` of `g` with `k` more cards played is worth to `player` compared with the
// others: its own income less what the best-paid other earns (and a bit for the others' goods covered).
double play_worth(const Data& d, const Counts& vis, const std::vector<Counts>& ships, int player, Good g, int k) {
  const int n = std::min(kMarketSlots, vis[gi(g)] + k);
  double mine = income(d.seats[player], ships[player], g, n);
  double others = 0;
  for (int p = 0; p < d.players; ++p) {
    if (p == player) continue;
    const double theirs = income(d.seats[p], ships[p], g, n);
    others = std::max(others, theirs) + 0.3 * theirs / d.players;
  }
  return mine - others;
}

std::vector<Counts> all_ships(const Data& d) {
  std::vector<Counts> out;
  out.reserve(d.players);
  for (const auto& s : d.seats) out.push_back(ships_of(s));
  return out;
}

// Future worth, in coins, of everything a player owns but coins: ships, Licenses and the hand.
double future_worth(const Data& d, const Counts& vis, int p) {
  const Seat& s = d.seats[p];
  const double r = remaining_scorings(d);
  double worth = 0;
  Counts ships = ships_of(s);
  int colours = 0;
  for (Good g : kAllGoods) {
    if (!ships[gi(g)]) continue;
    ++colours;
    worth += r * ships[gi(g)] * ship_rate(vis, g);
    // Cards in hand of a colour the player carries are scorings it controls.
    const int cards = std::min(s.hand[gi(g)], 4);
    worth += 0.45 * cards * ships[gi(g)] * (vis[gi(g)] + 1.5);
  }
  worth += s.licenses * kLicenseBonus * r * std::min(1.0, 0.2 + 0.15 * colours);
  return worth;
}

int leader_other_than(const Data& d, int player) {
  int best = -1;
  for (int p = 0; p < d.players; ++p) {
    if (p != player && (best < 0 || d.seats[p].coins > d.seats[best].coins)) best = p;
  }
  return best;
}

// ---- The quick policy --------------------------------------------------------------------------------

Json load_action(const Data& d, int player, Rng& rng) {
  const Counts vis = visible_all(d);
  Good best = Good::porcelain;
  double best_score = -1e9;
  for (Good g : kAllGoods) {
    if (d.supply[gi(g)] == 0) continue;
    const double score = colour_worth(d, vis, player, g) + 0.01 * static_cast<double>(rng.below(100));
    if (score > best_score) {
      best_score = score;
      best = g;
    }
  }
  return {{"type", "load"}, {"good", good_name(best)}};
}

// The best exchange for `player`: the ship and the new colour, and what it gains (colour worth).
struct Swap {
  int ship = -1;
  Good good = Good::porcelain;
  double gain = -1e9;
};

Swap best_swap(const Data& d, int player, Rng* rng) {
  const Counts vis = visible_all(d);
  const Seat& s = d.seats[player];
  Swap best;
  for (int i = 0; i < static_cast<int>(s.ships.size()); ++i) {
    const double now = colour_worth(d, vis, player, s.ships[i]);
    for (Good g : kAllGoods) {
      if (g == s.ships[i] || d.supply[gi(g)] == 0) continue;
      double gain = colour_worth(d, vis, player, g) - now;
      if (rng) gain += 0.01 * static_cast<double>(rng->below(30));
      if (gain > best.gain) best = {i, g, gain};
    }
  }
  return best;
}

Json swap_json(const Swap& s) { return {{"type", "exchange"}, {"ship", s.ship}, {"good", good_name(s.good)}}; }

// The best colour for a new ship.
Good ship_colour(const Data& d, int player, const Counts& vis, Rng* rng) {
  Good best = Good::porcelain;
  double best_score = -1e9;
  const Counts mine = ships_of(d.seats[player]);
  for (Good g : kAllGoods) {
    if (d.supply[gi(g)] == 0) continue;
    double score = colour_worth(d, vis, player, g) + 0.5 * mine[gi(g)];
    if (rng) score += 0.01 * static_cast<double>(rng->below(100));
    if (score > best_score) {
      best_score = score;
      best = g;
    }
  }
  return best;
}

Json phase1_action(const Data& d, int player, Rng& rng) {
  const Seat& s = d.seats[player];
  const Counts vis = visible_all(d);
  const double r = remaining_scorings(d);
  // Purchases: a Ship or a License when what it will earn clearly beats its cost.
  double best_gain = 0;
  Json best = {{"type", "pass"}};
  const double noise = 0.8 + 0.1 * static_cast<double>(rng.below(5));
  if (s.coins >= card_cost(Card::ship) && d.stock[ci(Card::ship)] > 0) {
    const Good g = ship_colour(d, player, vis, &rng);
    if (d.supply[gi(g)] > 0) {
      const double gain = r * ship_rate(vis, g) * noise - card_cost(Card::ship) * 1.2;
      if (gain > best_gain) {
        best_gain = gain;
        best = {{"type", "buy"}, {"card", "ship"}, {"good", good_name(g)}};
      }
    }
  }
  if (s.coins >= card_cost(Card::license) && d.stock[ci(Card::license)] > 0) {
    int colours = 0;
    const Counts mine = ships_of(s);
    for (int c : mine) colours += c > 0;
    const double gain =
        kLicenseBonus * r * std::min(1.0, 0.2 + 0.15 * colours) * noise - card_cost(Card::license) * 1.2;
    if (gain > best_gain) {
      best_gain = gain;
      best = {{"type", "buy"}, {"card", "license"}};
    }
  }
  if (best_gain > 0) return best;
  // Otherwise an exchange when a ship's colour is clearly worse than one available.
  const Swap swap = best_swap(d, player, &rng);
  if (swap.ship >= 0 && swap.gain >= 2.5) return swap_json(swap);
  return best;
}

Json exchanging_action(const Data& d, int player, Rng& rng) {
  const Swap swap = best_swap(d, player, &rng);
  if (swap.ship >= 0 && swap.gain >= 1.5) return swap_json(swap);
  return {{"type", "end_phase"}};
}

// Whether the player would like the game to end now: it leads on coins.
bool leads(const Data& d, int player) {
  const int other = leader_other_than(d, player);
  return other < 0 || d.seats[player].coins > d.seats[other].coins;
}

Json phase2_action(const Data& d, int player, Rng& rng) {
  const Seat& s = d.seats[player];
  const auto ships = all_ships(d);
  const Counts vis = visible_all(d);
  const int deck = static_cast<int>(d.deck.size());
  const int turns_left = deck / (2 * d.players) + 1;  // about how many turns each player still gets
  if (d.played) {
    // Playing already: more cards of the good, or score.
    const Good g = *d.played;
    const int slot = slot_to_cover(d, player, g, ships, &rng);
    const bool dump = s.hand[gi(g)] > turns_left;
    if (slot >= 0 && s.hand[gi(g)] > 0 && (dump || rng.below(8) == 0) &&
        play_worth(d, vis, ships, player, g, 1) > play_worth(d, vis, ships, player, g, 0)) {
      return {{"type", "play"}, {"good", good_name(g)}, {"slot", slot}};
    }
    return {{"type", "score"}};
  }
  if (s.hand_count() == 0) return {{"type", "draw"}};
  // The best good to play (one card), by its worth against the others.
  double best_worth = -1e9;
  Good best = Good::porcelain;
  for (Good g : kAllGoods) {
    if (s.hand[gi(g)] == 0) continue;
    const double w = play_worth(d, vis, ships, player, g, 1) + 0.01 * static_cast<double>(rng.below(50));
    if (w > best_worth) {
      best_worth = w;
      best = g;
    }
  }
  const bool draw_ends = deck <= kDrawCount;
  bool play;
  if (draw_ends) {
    play = !leads(d, player);  // end the game when ahead, go on when behind
  } else {
    const double threshold = 1.0 + static_cast<double>(rng.below(3)) - 0.4 * std::max(0, s.hand_count() - 4);
    play = best_worth >= threshold;
  }
  if (!play) return {{"type", "draw"}};
  int slot = slot_to_cover(d, player, best, ships, &rng);
  if (slot < 0) slot = static_cast<int>(rng.below(kMarketSlots));
  return {{"type", "play"}, {"good", good_name(best)}, {"slot", slot}};
}

Json extra_draw_action(const Data& d, int player) {
  // The last card ends the game: draw it only when ahead.
  if (d.deck.size() <= 1 && !leads(d, player)) return {{"type", "done"}};
  return {{"type", "extra_draw"}};
}

// ---- The bot -------------------------------------------------------------------------------------------

class SilkRoadBot final : public bot::GameBot {
 public:
  std::unique_ptr<State> sample(const Json& view, int seat, Rng& rng) const override {
    const int players = view.at("players").get<int>();
    auto state = std::make_unique<SilkRoadState>(players, rng.next());
    Data& d = state->data_for_testing();
    d.version = view.at("version").get<std::uint64_t>();
    d.phase = phase_from(view.at("phase").get<std::string>());
    d.start_player = view.at("start_player").get<int>();
    d.turn = view.at("turn").get<int>();
    d.active = d.phase == Phase::loading ? d.start_player : view.at("active").get<int>();
    for (Good g : kAllGoods) d.supply[gi(g)] = view.at("supply").at(good_name(g)).get<int>();
    for (Card c : {Card::ship, Card::exchange, Card::porter, Card::license}) {
      d.stock[ci(c)] = view.at("stock").at(card_name(c)).get<int>();
    }
    d.exchanges_left = d.phase == Phase::exchanging ? view.at("exchanges_left").get<int>() : 0;
    const Json& played = view.at("played_good");
    d.played = played.is_null() ? std::nullopt : good_from_name(played.get<std::string>());
    d.played_count = view.at("played_count").get<int>();
    d.extra_left = view.at("extra_draws_left").get<int>();

    // What the seat sees: the market's tops and its own hand; every other card is unseen.
    Counts unseen;
    unseen.fill(kCardsPerGood);
    const Json& market = view.at("market");
    for (int slot = 0; slot < kMarketSlots; ++slot) --unseen[gi(*good_from_name(market.at(slot).get<std::string>()))];
    d.loads = 0;
    for (int p = 0; p < players; ++p) {
      const Json& v = view.at("seats").at(p);
      Seat& s = d.seats[p];
      s = Seat{};
      for (const auto& g : v.at("ships")) s.ships.push_back(*good_from_name(g.get<std::string>()));
      s.exchanges = v.at("exchange").get<int>();
      s.porters = v.at("porter").get<int>();
      s.licenses = v.at("license").get<int>();
      d.loads += static_cast<int>(s.ships.size());
      if (p == seat) {
        for (Good g : kAllGoods) {
          s.hand[gi(g)] = v.at("hand").at(good_name(g)).get<int>();
          unseen[gi(g)] -= s.hand[gi(g)];
        }
      }
      if (!v.at("coins").is_null()) s.coins = v.at("coins").get<int>();
    }
    d.loads = std::min(d.loads, kStartingShips * players);

    // Deal the unseen cards: under the market's tops, into the other hands, and the rest is the deck.
    std::vector<Good> cards;
    for (Good g : kAllGoods) cards.insert(cards.end(), static_cast<std::size_t>(std::max(0, unseen[gi(g)])), g);
    rng.shuffle(cards);
    std::size_t next = 0;
    auto deal = [&]() { return next < cards.size() ? cards[next++] : Good::porcelain; };
    const Json& covered = view.at("covered");
    for (int slot = 0; slot < kMarketSlots; ++slot) {
      auto& stack = d.market[slot];
      stack.clear();
      const int under = covered.at(slot).get<int>();
      for (int i = 0; i < under; ++i) stack.push_back(deal());
      stack.push_back(*good_from_name(market.at(slot).get<std::string>()));
    }
    for (int p = 0; p < players; ++p) {
      if (p == seat) continue;
      const int count = view.at("seats").at(p).at("hand_count").get<int>();
      for (int i = 0; i < count; ++i) ++d.seats[p].hand[gi(deal())];
    }
    const auto deck_count = view.at("deck_count").get<std::size_t>();
    d.deck.clear();
    while (d.deck.size() < deck_count) d.deck.push_back(deal());

    guess_coins(d, view, seat, rng);
    return state;
  }

  // What nobody has seen is the deck's order alone: hands are their owners', and a covered card was seen on top.
  std::unique_ptr<State> reseed(const State& state, Seed seed) const override {
    auto out = std::make_unique<SilkRoadState>(static_cast<const SilkRoadState&>(state));
    if (state.is_over()) return out;
    Data& d = out->data_for_testing();
    Rng rng(seed);
    d.rng = Rng(rng.next());  // (the rules draw from it only at the setup)
    std::sort(d.deck.begin(), d.deck.end());  // so that only which cards are in the deck counts
    rng.shuffle(d.deck);
    return out;
  }

  std::vector<double> estimate(const State& state) const override {
    const Data& d = static_cast<const SilkRoadState&>(state).data();
    std::vector<double> out(d.players);
    for (int p = 0; p < d.players; ++p) out[p] = d.seats[p].coins;
    if (d.phase == Phase::over) return out;
    const Counts vis = visible_all(d);
    for (int p = 0; p < d.players; ++p) out[p] += future_worth(d, vis, p);
    return out;
  }

  double margin_scale(int) const override { return 12.0; }

  Json quick_action(const State& state, int player, Rng& rng) const override {
    const Data& d = static_cast<const SilkRoadState&>(state).data();
    switch (d.phase) {
      case Phase::loading: return load_action(d, player, rng);
      case Phase::phase1: return phase1_action(d, player, rng);
      case Phase::exchanging: return exchanging_action(d, player, rng);
      case Phase::phase2: return phase2_action(d, player, rng);
      case Phase::extra_draws: return extra_draw_action(d, player);
      case Phase::over: break;
    }
    return {{"type", "pass"}};
  }

  std::vector<Json> candidates(const State& state, int seat, const std::vector<Json>& legal) const override {
    if (legal.size() <= 12) return legal;
    const Data& d = static_cast<const SilkRoadState&>(state).data();
    Rng rng(0);
    std::vector<Json> out;
    auto add = [&](const Json& a) {
      if (std::find(legal.begin(), legal.end(), a) != legal.end() &&
          std::find(out.begin(), out.end(), a) == out.end()) {
        out.push_back(a);
      }
    };
    add(quick_action(state, seat, rng));
    const Counts vis = visible_all(d);
    if (d.phase == Phase::phase1 || d.phase == Phase::exchanging) {
      add({{"type", d.phase == Phase::phase1 ? "pass" : "end_phase"}});
      for (const char* c : {"license", "exchange", "porter"}) add({{"type", "buy"}, {"card", c}});
      // Ships: the best colours by worth.
      std::vector<std::pair<double, Good>> colours;
      const Counts mine = ships_of(d.seats[seat]);
      for (Good g : kAllGoods) colours.push_back({colour_worth(d, vis, seat, g) + 0.5 * mine[gi(g)], g});
      std::sort(colours.begin(), colours.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
      for (int i = 0; i < 3; ++i) add({{"type", "buy"}, {"card", "ship"}, {"good", good_name(colours[i].second)}});
      // Exchanges: the best few by colour worth gained.
      std::vector<std::pair<double, Json>> swaps;
      const Seat& s = d.seats[seat];
      for (int i = 0; i < static_cast<int>(s.ships.size()); ++i) {
        const double now = colour_worth(d, vis, seat, s.ships[i]);
        for (Good g : kAllGoods) {
          if (g == s.ships[i] || d.supply[gi(g)] == 0) continue;
          swaps.push_back({colour_worth(d, vis, seat, g) - now, swap_json({i, g, 0})});
        }
      }
      std::stable_sort(swaps.begin(), swaps.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
      for (const auto& [gain, a] : swaps) {
        if (out.size() >= 12) break;
        add(a);
      }
    } else if (d.phase == Phase::phase2) {
      add({{"type", "draw"}});
      add({{"type", "score"}});
      // For each good in hand, the two slots best to cover.
      const auto ships = all_ships(d);
      for (Good g : kAllGoods) {
        if (d.seats[seat].hand[gi(g)] == 0 || (d.played && *d.played != g)) continue;
        std::vector<std::pair<double, int>> slots;
        for (int slot = 0; slot < kMarketSlots; ++slot) {
          const Good top = d.market[slot].back();
          double score = top == g ? -100 : 0;
          for (int p = 0; p < d.players; ++p) score += (p == seat ? -1.5 : 1.0) * ships[p][gi(top)];
          slots.push_back({score, slot});
        }
        std::stable_sort(slots.begin(), slots.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        for (int i = 0; i < 2; ++i) add({{"type", "play"}, {"good", good_name(g)}, {"slot", slots[i].second}});
      }
    }
    if (out.empty()) return legal;
    return out;
  }

  // Sequential halving over up to 12 candidates needs about a dozen playouts each in its first round.
  // Playouts are cut after 40 actions, so a decision costs about the same whatever the player count.
  bot::Budget normal_budget(int) const override { return {600, 40}; }

 private:
  // The other players' coins, hidden until the end: what they have earned is guessed from what the seat
  // earned itself (scaled by how much each carries) and from what they have visibly spent.
  static void guess_coins(Data& d, const Json& view, int seat, Rng& rng) {
    const Json& seats = view.at("seats");
    const Seat& me = d.seats[seat];
    const double my_earned = me.coins + spent(me);
    const double my_capacity = static_cast<double>(me.ships.size()) + 0.7 * me.licenses;
    for (int p = 0; p < d.players; ++p) {
      if (p == seat || !seats.at(p).at("coins").is_null()) continue;
      Seat& s = d.seats[p];
      const double capacity = static_cast<double>(s.ships.size()) + 0.7 * s.licenses;
      double earned = my_capacity > 0 ? my_earned * capacity / my_capacity : my_earned;
      // Whoever bought has earned at least what they spent; guess a little more than that.
      earned = std::max(earned, spent(s) + 2.0);
      const double noise = 0.8 + 0.05 * static_cast<double>(rng.below(9));
      s.coins = std::max(0, static_cast<int>(std::lround(earned * noise)) - spent(s));
    }
  }
};

}  // namespace

const bot::GameBot& bot() {
  static const SilkRoadBot instance;
  return instance;
}

}  // namespace emporium::engine::silkroad
