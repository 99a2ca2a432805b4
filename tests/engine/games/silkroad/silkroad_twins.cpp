#include <algorithm>
#include <memory>
#include <optional>

#include "hidden_twins.hpp"
#include "silkroad/silkroad.hpp"

namespace emporium::engine::testing {
namespace {

// Maritime Silk Road: a viewer may not know the deck order, another player's hand (only its count)
// or another player's coins (until the end). The twin changes one of the three.
std::optional<Twin> perturb_silkroad(const State& original, const Viewer& viewer, Rng& rng) {
  using silkroad::Good;
  const auto& s = dynamic_cast<const silkroad::SilkRoadState&>(original);
  const auto& d = s.data();
  std::vector<int> others;  // the players whose hand and coins this viewer may not see
  for (int p = 0; p < d.players; ++p) {
    if (!viewer.is_player(p)) others.push_back(p);
  }
  auto twin = std::make_unique<silkroad::SilkRoadState>(s);
  auto& t = twin->data_for_testing();
  // Counts the cards drawn (by draws and Exchange draws) in one action's full events.
  auto drawn_in = [](const std::vector<Event>& events) {
    long n = 0;
    for (const auto& e : events) {
      if (e.detail["type"] == "draw" || e.detail["type"] == "extra_draw") n += e.detail["count"].get<long>();
    }
    return n;
  };
  switch (rng.below(3)) {
    case 0: {  // The deck order: keep the next `keep` cards, shuffle the rest.
      const std::size_t keep = rng.below(d.deck.size() + 1);
      const std::size_t deep = d.deck.size() - keep;  // deck.back() is drawn first
      if (deep < 2) return std::nullopt;
      for (int attempt = 0; attempt < 8 && twin->equals(original); ++attempt) {
        std::vector<Good> part(d.deck.begin(), d.deck.begin() + static_cast<long>(deep));
        rng.shuffle(part);
        std::copy(part.begin(), part.end(), t.deck.begin());
      }
      if (twin->equals(original)) return std::nullopt;
      auto budget = static_cast<long>(keep);
      auto judge = [budget, drawn_in](const std::vector<Event>& events) mutable {
        budget -= drawn_in(events);
        return budget >= 0;
      };
      return Twin{std::move(twin), judge};
    }
    case 1: {  // Another player's hand, same count: one card swapped with a card of another good in the deck.
      const int q = others[rng.below(others.size())];
      std::vector<int> held;
      for (int g = 0; g < silkroad::kGoods; ++g) {
        if (d.seats[q].hand[g] > 0) held.push_back(g);
      }
      if (held.empty() || d.deck.empty()) return std::nullopt;
      const int a = held[rng.below(held.size())];
      const std::size_t j = rng.below(d.deck.size());
      const int b = static_cast<int>(d.deck[j]);
      if (a == b) return std::nullopt;
      --t.seats[q].hand[a];
      ++t.seats[q].hand[b];
      t.deck[j] = static_cast<Good>(a);
      // Hidden until q plays either good, or the changed deck card is drawn.
      auto budget = static_cast<long>(d.deck.size() - j - 1);
      auto judge = [budget, drawn_in, q, a, b](const std::vector<Event>& events) mutable {
        budget -= drawn_in(events);
        for (const auto& e : events) {
          if (e.detail["type"] == "play" && e.detail["player"] == q &&
              (e.detail["good"] == silkroad::good_name(static_cast<Good>(a)) ||
               e.detail["good"] == silkroad::good_name(static_cast<Good>(b)))) {
            return false;
          }
        }
        return budget >= 0;
      };
      return Twin{std::move(twin), judge};
    }
    default: {  // Another player's coins (more of them, so every purchase stays possible): hidden until the end.
      const int q = others[rng.below(others.size())];
      t.seats[q].coins += 1 + static_cast<int>(rng.below(20));
      auto judge = [](const std::vector<Event>& events) {
        for (const auto& e : events) {
          if (e.detail["type"] == "game_over") return false;
        }
        return true;
      };
      return Twin{std::move(twin), judge};
    }
  }
}

[[maybe_unused]] const bool silkroad_registered = add_perturber("silkroad", perturb_silkroad);

}  // namespace
}  // namespace emporium::engine::testing
