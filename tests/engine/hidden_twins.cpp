#include "hidden_twins.hpp"

#include "medici/medici.hpp"
#include "medina/medina.hpp"
#include "merkator/merkator.hpp"
#include "silkroad/silkroad.hpp"

namespace emporium::engine::testing {
namespace {

// Medici: nobody sees the bag's order or the removed tiles. Keep the next `keep` draws, shuffle
// the rest of the bag together with the removed tiles.
std::optional<Twin> perturb_medici(const State& original, const Viewer&, Rng& rng) {
  const auto& s = dynamic_cast<const medici::MediciState&>(original);
  const auto& d = s.data();
  const std::size_t keep = rng.below(d.bag.size() + 1);
  std::vector<medici::Tile> kept(d.bag.end() - keep, d.bag.end());            // drawn first
  std::vector<medici::Tile> pool(d.bag.begin(), d.bag.end() - keep);           // drawn later
  pool.insert(pool.end(), d.removed.begin(), d.removed.end());
  if (pool.size() < 2) return std::nullopt;
  auto twin = std::make_unique<medici::MediciState>(s);
  for (int attempt = 0; attempt < 8 && twin->equals(original); ++attempt) {
    rng.shuffle(pool);
    auto& t = twin->data_for_testing();
    const std::size_t deep = d.bag.size() - keep;
    t.bag.assign(pool.begin(), pool.begin() + deep);
    t.bag.insert(t.bag.end(), kept.begin(), kept.end());
    t.removed.assign(pool.begin() + deep, pool.end());
  }
  if (twin->equals(original)) return std::nullopt;
  auto budget = static_cast<long>(keep);
  auto day_over = std::make_shared<bool>(false);
  auto judge = [budget, day_over](const std::vector<Event>& events) mutable {
    if (*day_over) return false;
    for (const auto& e : events) {
      const auto& type = e.detail["type"];
      if (type == "draw") --budget;
      if (type == "fill") budget -= static_cast<long>(e.detail["tiles"].size());
      if (type == "day_end") *day_over = true;  // the next day's bag is dealt afresh
    }
    return budget >= 0;
  };
  return Twin{std::move(twin), judge};
}

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

// Merkator: everything about the players is public; nobody may know the order of any pile (the contract
// piles below their visible top card, the bonus and building draw piles) or the letters of the time counters
// not yet turned. The twin changes one of these; it stays hidden until a card is drawn from the changed pile
// or a letter is revealed.
std::optional<Twin> perturb_merkator(const State& original, const Viewer&, Rng& rng) {
  const auto& s = dynamic_cast<const merkator::MerkatorState&>(original);
  const auto& d = s.data();
  auto twin = std::make_unique<merkator::MerkatorState>(s);
  auto& t = twin->data_for_testing();
  // Hidden until an event reveals the changed part; compared for at most 60 actions (a contract pile can stay
  // untouched for a whole game, and 60 actions cover several full turns).
  auto stop_at = [](std::function<bool(const Json&)> reveals) {
    return [reveals, budget = 60](const std::vector<Event>& events) mutable {
      for (const auto& e : events) {
        if (reveals(e.detail)) return false;
      }
      return --budget >= 0;
    };
  };
  switch (rng.below(4)) {
    case 0: {  // The letters of the counters still face down.
      std::vector<merkator::Counter*> hidden;
      for (auto& row : t.chart) {
        for (auto& c : row) {
          if (!c.known) hidden.push_back(&c);
        }
      }
      if (hidden.size() < 2) return std::nullopt;
      std::vector<int> letters;
      for (auto* c : hidden) letters.push_back(c->letter);
      for (int attempt = 0; attempt < 8 && twin->equals(original); ++attempt) {
        rng.shuffle(letters);
        for (std::size_t i = 0; i < hidden.size(); ++i) hidden[i]->letter = letters[i];
        // Only the letter matters: a twin with the same letters in other places is no different to anyone.
        bool same = true;
        for (std::size_t r = 0; r < d.chart.size(); ++r) {
          for (std::size_t i = 0; i < d.chart[r].size(); ++i) {
            same = same && s.catalog().letter_name(s.catalog().time_chart[d.chart[r][i].letter]) ==
                               s.catalog().letter_name(s.catalog().time_chart[t.chart[r][i].letter]);
          }
        }
        if (same) t.chart = d.chart;
      }
      if (twin->equals(original)) return std::nullopt;
      return Twin{std::move(twin), stop_at([](const Json& e) { return e["type"] == "letter"; })};
    }
    case 1:
    case 2: {  // A draw pile of bonus cards or buildings.
      const bool bonus = rng.below(2) == 0;
      auto& pile = bonus ? t.bonus_pile : t.building_pile;
      if (pile.size() < 2) return std::nullopt;
      for (int attempt = 0; attempt < 8 && twin->equals(original); ++attempt) rng.shuffle(pile);
      if (twin->equals(original)) return std::nullopt;
      const std::string kind = bonus ? "bonus" : "building";
      return Twin{std::move(twin), stop_at([kind](const Json& e) { return e["type"] == "buy" && e["kind"] == kind; })};
    }
    default: {  // A contract pile below its top card.
      const std::size_t v = rng.below(d.piles.size());
      auto& pile = t.piles[v];
      if (pile.size() < 3) return std::nullopt;
      for (int attempt = 0; attempt < 8 && twin->equals(original); ++attempt) {
        std::vector<int> below(pile.begin(), pile.end() - 1);
        rng.shuffle(below);
        std::copy(below.begin(), below.end(), pile.begin());
      }
      if (twin->equals(original)) return std::nullopt;
      const int value = s.catalog().values[v];
      return Twin{std::move(twin), stop_at([value](const Json& e) {
                    return (e["type"] == "new_contract" && e["value"] == value) || e["type"] == "reshuffle";
                  })};
    }
  }
}

// Medina: a viewer may not know another player's screened stock (palace pieces, stables, residents,
// walls) while it is not public. The twin has one such count one higher or lower. The difference stays
// hidden until that player acts: their turn begins (or is skipped), they place, their stock is shown, or
// the game ends (every placement of theirs, and whether they can place at all, may depend on it).
std::optional<Twin> perturb_medina(const State& original, const Viewer& viewer, Rng& rng) {
  const auto& s = dynamic_cast<const medina::MedinaState&>(original);
  const auto& d = s.data();
  if (d.phase != medina::Phase::play) return std::nullopt;
  std::vector<int> others;  // screened stocks this viewer may not see
  for (int p = 0; p < d.players; ++p) {
    if (!viewer.is_player(p) && !d.seats[p].stock_public) others.push_back(p);
  }
  if (others.empty()) return std::nullopt;
  const int q = others[rng.below(others.size())];
  auto twin = std::make_unique<medina::MedinaState>(s);
  auto& stock = twin->data_for_testing().seats[q].stock;
  std::vector<int*> counts = {&stock.stables, &stock.residents, &stock.walls};
  for (int c = 0; c < medina::kColours; ++c) {
    if (!d.closed[c]) counts.push_back(&stock.palaces[c]);
  }
  int* count = counts[rng.below(counts.size())];
  *count += (*count == 0 || rng.below(2) == 0) ? 1 : -1;
  auto judge = [q](const std::vector<Event>& events) {
    for (const auto& e : events) {
      const auto& type = e.detail["type"];
      if (type == "game_over") return false;
      if ((type == "turn" || type == "skip" || type == "place" || type == "stock_revealed") && e.detail["player"] == q) {
        return false;
      }
    }
    return true;
  };
  return Twin{std::move(twin), judge};
}

}  // namespace

const std::map<std::string, Perturber>& perturbers() {
  static const std::map<std::string, Perturber> table = {
      {"medici", perturb_medici},
      {"merkator", perturb_merkator},
      {"medina", perturb_medina},
      {"silkroad", perturb_silkroad}};
  return table;
}


}  // namespace emporium::engine::testing
