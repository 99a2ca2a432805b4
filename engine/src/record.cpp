#include "emporium/engine/record.hpp"

namespace emporium::engine {

Json Record::to_json() const {
  Json list = Json::array();
  for (const auto& a : actions) list.push_back({{"player", a.player}, {"action", a.action}});
  // The seed is written as hex digits: JSON numbers are not safe past 2^53 in most readers.
  return {{"game", game},
          {"players", players},
          {"options", options},
          {"seed", seed.to_hex()},
          {"actions", list}};
}

Record Record::from_json(const Json& j) {
  Record r;
  r.game = j.at("game").get<std::string>();
  r.players = j.at("players").get<int>();
  r.options = j.value("options", Json::object());
  const auto seed = Seed::parse(j.at("seed").get<std::string>());
  if (!seed) throw Json::other_error::create(501, "the seed is not 32 hex digits", &j);
  r.seed = *seed;
  for (const auto& a : j.at("actions")) {
    r.actions.push_back({a.at("player").get<int>(), a.at("action")});
  }
  return r;
}

Replayed replay(const Record& record) {
  auto created = create_game(record.game, record.players, record.options, record.seed);
  if (created.error) return {nullptr, created.error, 0};
  for (std::size_t i = 0; i < record.actions.size(); ++i) {
    const auto& a = record.actions[i];
    auto result = created.state->apply(a.player, a.action);
    if (!result.ok()) return {std::move(created.state), result.error, i};
  }
  return {std::move(created.state), std::nullopt, 0};
}

}  // namespace emporium::engine
