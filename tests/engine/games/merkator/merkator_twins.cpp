#include <algorithm>
#include <memory>
#include <optional>

#include "hidden_twins.hpp"
#include "merkator/merkator.hpp"

namespace emporium::engine::testing {
namespace {

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

[[maybe_unused]] const bool merkator_registered = add_perturber("merkator", perturb_merkator);

}  // namespace
}  // namespace emporium::engine::testing
