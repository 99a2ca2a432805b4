#include "emporium/engine/game_record.hpp"

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

const char* engine_version() { return EMPORIUM_ENGINE_VERSION; }

}  // namespace emporium::engine
