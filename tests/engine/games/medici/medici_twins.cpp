#include <memory>
#include <optional>

#include "hidden_twins.hpp"
#include "medici/medici.hpp"

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

[[maybe_unused]] const bool medici_registered = add_perturber("medici", perturb_medici);

}  // namespace
}  // namespace emporium::engine::testing
