// Medici's bot: what a seat cannot see is the bag (and the tiles removed unseen for the day). A sampled
// state deals the tiles not in view at random between the two. Playouts run to the game's end with a
// quick policy that values a lot by its ship points and its commodity-track steps.
#include <algorithm>
#include <cmath>

#include "medici/bot.hpp"
#include "medici/medici.hpp"

namespace emporium::engine::medici {
namespace {

Commodity commodity_from(const std::string& name) {
  for (int c = 0; c <= static_cast<int>(Commodity::gold); ++c) {
    if (name == commodity_name(static_cast<Commodity>(c))) return static_cast<Commodity>(c);
  }
  return Commodity::gold;
}

// Turns the view's tiles back into tile ids, using each id once (two tiles of a commodity are worth 5).
class TileIds {
 public:
  Tile take(const Json& tile) {
    const Commodity c = commodity_from(tile.at("commodity").get<std::string>());
    const int value = tile.at("value").get<int>();
    for (int copy = 0; copy < 2; ++copy) {
      const Tile t = make_tile(c, value, copy);
      if (t < kTileCount && !used_[t]) {
        used_[t] = true;
        return t;
      }
    }
    return 255;  // not a tile of the game: the view is not Medici's
  }
  std::vector<Tile> take_all(const Json& tiles) {
    std::vector<Tile> out;
    for (const auto& t : tiles) out.push_back(take(t));
    return out;
  }
  std::vector<Tile> unseen() const {
    std::vector<Tile> out;
    for (int t = 0; t < kTileCount; ++t) {
      if (!used_[t]) out.push_back(static_cast<Tile>(t));
    }
    return out;
  }

 private:
  std::array<bool, kTileCount> used_{};
};

Phase phase_from(const std::string& name) {
  return name == "draw" ? Phase::draw : name == "auction" ? Phase::auction : Phase::over;
}

// What a lot is worth to `player` now, in florins: ship points (the day's ship ranking pays about one
// florin a point) and track steps (majorities and the 5/6/7 bonuses pay out on every later day too).
double lot_worth(const Data& d, int player) {
  const int days_left = kDays - d.day + 1;
  double worth = 0;
  std::array<int, kCommodities> steps{};
  for (Tile t : d.lot) {
    worth += value_of(t) * 1.1;
    if (commodity_of(t) != Commodity::gold) ++steps[static_cast<int>(commodity_of(t))];
  }
  for (int c = 0; c < kCommodities; ++c) {
    if (!steps[c]) continue;
    const int before = d.tracks[player][c];
    const int after = std::min(kTrackTop, before + steps[c]);
    int best_other = 0;
    for (int p = 0; p < d.players; ++p) {
      if (p != player) best_other = std::max(best_other, d.tracks[p][c]);
    }
    // A step that takes or keeps the lead on a track is worth more; bonuses come at 5, 6 and 7.
    const double lead = after > best_other ? 3.0 : after == best_other ? 1.5 : 0.5;
    worth += (after - before) * (1.5 + lead * std::min(days_left, 2) / 2.0);
    worth += (track_bonus(after) - track_bonus(before)) * 0.8;
  }
  // Space is scarce: a lot that fills the ship with little is worse than it looks.
  const int free_after = d.capacity - static_cast<int>(d.ships[player].size() + d.lot.size());
  if (free_after == 0) worth -= 2;
  return worth;
}

// The hidden part of a state: the tiles nobody has seen, dealt at random between the bag (`bag_count` of them,
// in draw order) and the removed.
void deal_unseen(Data& d, std::vector<Tile> unseen, std::size_t bag_count, Rng& rng) {
  rng.shuffle(unseen);
  d.bag.assign(unseen.begin(), unseen.begin() + static_cast<long>(std::min(bag_count, unseen.size())));
  d.removed.assign(unseen.begin() + static_cast<long>(d.bag.size()), unseen.end());
}

class MediciBot final : public bot::GameBot {
 public:
  std::unique_ptr<State> sample(const Json& view, int, Rng& rng) const override {
    const int players = view.at("players").get<int>();
    auto state = std::make_unique<MediciState>(players, rng.next());
    Data& d = state->data_for_testing();
    TileIds ids;
    d.day = view.at("day").get<int>();
    d.phase = phase_from(view.at("phase").get<std::string>());
    d.start_player = view.at("start_player").get<int>();
    d.active = view.at("active").get<int>();
    d.version = view.at("version").get<std::uint64_t>();
    d.scorings = view.at("scorings").get<std::vector<Json>>();
    for (int p = 0; p < players; ++p) {
      const auto& seat = view.at("seats").at(p);
      d.money[p] = seat.at("money").get<int>();
      for (int c = 0; c < kCommodities; ++c) {
        d.tracks[p][c] = seat.at("tracks").at(commodity_name(static_cast<Commodity>(c))).get<int>();
      }
      d.ships[p] = ids.take_all(seat.at("ship"));
    }
    d.discarded = ids.take_all(view.at("discarded"));
    d.lot = ids.take_all(view.at("lot"));
    d.bid_order.clear();
    d.bids.clear();
    d.high_bid = 0;
    d.high_bidder = -1;
    if (const auto& auction = view.at("auction"); auction.is_object()) {
      d.bid_order = auction.at("order").get<std::vector<int>>();
      for (const auto& b : auction.at("bids")) {
        d.bids.push_back({b.at("player").get<int>(), b.value("amount", 0), b.value("forced", false)});
      }
      d.high_bid = auction.at("high_bid").get<int>();
      d.high_bidder = auction.at("high_bidder").is_null() ? -1 : auction.at("high_bidder").get<int>();
    }
    deal_unseen(d, ids.unseen(), view.at("bag_count").get<std::size_t>(), rng);
    return state;
  }

  std::unique_ptr<State> reseed(const State& state, Seed seed) const override {
    auto out = std::make_unique<MediciState>(static_cast<const MediciState&>(state));
    if (state.is_over()) return out;
    Data& d = out->data_for_testing();
    Rng rng(seed);
    d.rng = Rng(rng.next());  // the later days' bags and start-player ties
    std::vector<Tile> unseen = d.bag;
    unseen.insert(unseen.end(), d.removed.begin(), d.removed.end());
    std::sort(unseen.begin(), unseen.end());  // so that only which tiles are unseen counts, not their order
    deal_unseen(d, std::move(unseen), d.bag.size(), rng);
    return out;
  }

  std::vector<double> estimate(const State& state) const override {
    const Data& d = static_cast<const MediciState&>(state).data();
    std::vector<double> out(d.money.begin(), d.money.end());
    if (d.phase == Phase::over) return out;
    // Unfinished: what today's ships and tracks would pay if the day ended now, and the tracks' worth later.
    std::vector<int> ship_values(d.players, 0);
    for (int p = 0; p < d.players; ++p) {
      for (Tile t : d.ships[p]) ship_values[p] += value_of(t);
    }
    std::vector<int> order(d.players);
    for (int p = 0; p < d.players; ++p) order[p] = p;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return ship_values[a] > ship_values[b]; });
    const auto& pay = ship_payments(d.players);
    for (int i = 0; i < d.players; ++i) out[order[i]] += pay[i] * 0.7;
    for (int p = 0; p < d.players; ++p) {
      for (int c = 0; c < kCommodities; ++c) out[p] += d.tracks[p][c] * 1.5 * (kDays - d.day + 1);
    }
    return out;
  }

  double margin_scale(int) const override { return 15.0; }

  Json quick_action(const State& state, int player, Rng& rng) const override {
    const auto& s = static_cast<const MediciState&>(state);
    const Data& d = s.data();
    if (d.phase == Phase::draw) {
      const bool can_draw = static_cast<int>(d.lot.size()) < s.lot_limit() && !d.bag.empty();
      if (d.lot.empty() || (can_draw && lot_worth(d, player) < 6 + rng.below(6))) return {{"type", "draw"}};
      return {{"type", "stop"}};
    }
    const bool room = s.free_spaces(player) >= static_cast<int>(d.lot.size());
    if (!room) return {{"type", "pass"}};
    const bool last = d.bids.size() + 1 == d.bid_order.size();
    const double worth = lot_worth(d, player) * (0.55 + 0.1 * static_cast<double>(rng.below(5)));
    const int limit = std::min(d.money[player], static_cast<int>(std::floor(worth)));
    if (limit <= d.high_bid) return {{"type", "pass"}};
    // The last bidder need only outbid; the others bid what the lot is worth to them.
    return {{"type", "bid"}, {"amount", last ? d.high_bid + 1 : limit}};
  }

  std::vector<Json> candidates(const State& state, int seat, const std::vector<Json>& legal) const override {
    const Data& d = static_cast<const MediciState&>(state).data();
    if (d.phase != Phase::auction) return legal;
    // Bids: pass, the least bid, and a spread of amounts up to what the lot could be worth.
    std::vector<Json> out;
    std::vector<int> amounts;
    for (const auto& a : legal) {
      if (a["type"] == "pass") out.push_back(a);
      if (a["type"] == "bid") amounts.push_back(a["amount"].get<int>());
    }
    if (amounts.empty()) return out;
    const int least = amounts.front();
    const int most = amounts.back();
    const int worth = static_cast<int>(lot_worth(d, seat));
    std::vector<int> picks = {least,         least + 1,     least + 3,          worth / 2,
                              worth * 2 / 3, worth * 5 / 6, worth,              worth + 3};
    std::sort(picks.begin(), picks.end());
    picks.erase(std::unique(picks.begin(), picks.end()), picks.end());
    for (int amount : picks) {
      if (amount >= least && amount <= most) out.push_back({{"type", "bid"}, {"amount", amount}});
    }
    return out;
  }

  bot::Budget normal_budget(int players) const override { return {players <= 3 ? 192 : 160, 0}; }
};

}  // namespace

const bot::GameBot& bot() {
  static const MediciBot instance;
  return instance;
}

}  // namespace emporium::engine::medici
