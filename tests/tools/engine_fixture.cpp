// Prints a random game as JSON for the web client's tests: for each viewer (every player and a
// spectator) the view at the start and, per action, the events that viewer receives, that
// player's legal actions and the view after. The client's event reducer must turn each view plus
// its events into the next view.
//   engine_fixture <game> <players> <seed>
#include <cstdio>
#include <iostream>
#include <string>

#include <emporium/engine/registry.hpp>
#include <emporium/engine/rng.hpp>
#include <merkator/data_file.hpp>

using namespace emporium::engine;

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: engine_fixture <game> <players> <seed>\n";
    return 2;
  }
  // Merkator's components come from its data file, read here (the engine does no I/O).
  if (auto error = merkator::load_data_file(EMPORIUM_MERKATOR_DATA)) {
    std::cerr << *error << "\n";
    return 1;
  }
  const int players = std::stoi(argv[2]);
  const auto seed = std::stoull(argv[3]);
  auto created = create_game(argv[1], players, Json::object(), seed);
  if (created.error) {
    std::cerr << created.error->message << "\n";
    return 1;
  }
  auto& state = *created.state;
  std::vector<Viewer> viewers;
  for (int p = 0; p < players; ++p) viewers.push_back(Viewer::of_player(p));
  viewers.push_back(Viewer::spectator());

  Json out = {{"game", argv[1]}, {"players", players}, {"viewers", Json::array()}};
  std::vector<Json> steps(viewers.size(), Json::array());
  std::vector<Json> initial;
  for (const auto& v : viewers) initial.push_back(state.view(v));
  Rng rng(seed);
  while (!state.is_over()) {
    const auto movers = state.to_move();
    const int player = movers[rng.below(movers.size())];
    const auto legal = state.legal_actions(player);
    const Json action = legal[rng.below(3) == 0 ? 0 : rng.below(legal.size())];
    const auto result = state.apply(player, action);
    for (std::size_t i = 0; i < viewers.size(); ++i) {
      const auto& v = viewers[i];
      Json legal_now = v.kind == Viewer::Kind::player ? Json(state.legal_actions(v.player)) : Json::array();
      steps[i].push_back({{"player", player},
                          {"action", action},
                          {"events", events_for(result.events, v)},
                          {"legal", legal_now},
                          {"view", state.view(v)}});
    }
  }
  for (std::size_t i = 0; i < viewers.size(); ++i) {
    out["viewers"].push_back({{"seat", viewers[i].kind == Viewer::Kind::player ? Json(viewers[i].player) : Json(nullptr)},
                              {"initial", initial[i]},
                              {"steps", steps[i]}});
  }
  std::cout << out.dump() << "\n";
  return 0;
}
