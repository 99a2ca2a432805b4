#include <memory>
#include <optional>

#include "hidden_twins.hpp"
#include "medina/medina.hpp"

namespace emporium::engine::testing {
namespace {

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

[[maybe_unused]] const bool medina_registered = add_perturber("medina", perturb_medina);

}  // namespace
}  // namespace emporium::engine::testing
