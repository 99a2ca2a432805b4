// Finding a game, its bot and a record's game by id, in the list of games.cpp.
#include "emporium/engine/registry.hpp"

#include "emporium/engine/bot.hpp"
#include "emporium/engine/record.hpp"

namespace emporium::engine {

const GameInfo* find_game(const std::string& id) {
  for (const auto& g : all_games()) {
    if (g.id == id) return &g;
  }
  return nullptr;
}

Created create_game(const std::string& id, int players, const Json& options, Seed seed) {
  const GameInfo* game = find_game(id);
  if (!game) return {nullptr, nullptr, make_error(errc::unknown_game, "no game called '" + id + "'")};
  return create_game(*game, players, options, seed);
}

Replayed replay(const Record& record) {
  auto created = create_game(record.game, record.players, record.options, record.seed);
  if (created.error) return {nullptr, created.error, 0};
  created.state->allow_undo(true);  // a record replays the undos its table allowed
  for (std::size_t i = 0; i < record.actions.size(); ++i) {
    const auto& a = record.actions[i];
    auto result = created.state->apply(a.player, a.action);
    if (!result.ok()) return {std::move(created.state), result.error, i};
  }
  return {std::move(created.state), std::nullopt, 0};
}

namespace bot {

const GameBot* find_bot(const std::string& game) {
  const GameInfo* info = find_game(game);
  return info ? info->bot : nullptr;
}

Decision decide(const std::string& game, const Json& view, int seat, const std::vector<Json>& legal, Level level,
                std::uint64_t seed, std::optional<Budget> budget) {
  const GameBot* b = find_bot(game);
  if (!b) return {legal.empty() ? Json() : legal.front(), 0, 0};
  return decide(*b, view, seat, legal, level, seed, budget);
}

}  // namespace bot
}  // namespace emporium::engine
