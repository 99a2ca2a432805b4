// Fills a data directory with unfinished tables, for measuring how long a restart takes to bring them back:
//   stored_tables <data-dir> [--tables N] [--moves M] [--game silkroad] [--players 3]
// Each table is a game of `players` people (seat tokens of its own), `M` random legal moves in (fewer if the
// game ends sooner: then it stops one move before the end), written through the server's own store.
#include <iostream>
#include <string>

#include <emporium/engine/registry.hpp>
#include <emporium/engine/rng.hpp>

#include "common/secrets.hpp"
#include "store/sqlite_store.hpp"

using namespace emporium;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: stored_tables <data-dir> [--tables N] [--moves M] [--game G] [--players P]\n";
    return 2;
  }
  int tables = 10000, moves = 30, players = 3;
  std::string game = "silkroad";
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--tables") tables = std::stoi(value);
    else if (flag == "--moves") moves = std::stoi(value);
    else if (flag == "--game") game = value;
    else if (flag == "--players") players = std::stoi(value);
    else { std::cerr << "unknown flag " << flag << "\n"; return 2; }
  }
  server::SqliteStore db(argv[1]);
  engine::Rng rng(1);
  for (int t = 0; t < tables; ++t) {
    server::StoredTable stored;
    stored.id = server::new_table_id();
    stored.game = game;
    stored.players = players;
    stored.seed = server::new_game_seed();
    stored.salt = server::new_salt();
    stored.state = server::TableState::playing;
    for (int s = 0; s < players; ++s) {
      stored.seats.push_back({.seat = s,
                              .name = "Player " + std::to_string(s + 1),
                              .token_hash = server::hash_token(server::new_seat_token())});
    }
    auto created = engine::create_game(game, players, nlohmann::json::object(), stored.seed);
    if (created.error) { std::cerr << created.error->message << "\n"; return 1; }
    stored.options = created.options;
    db.create_table(stored);
    auto& state = *created.state;
    for (int m = 0; m < moves; ++m) {
      const int p = state.to_move().at(0);
      const auto legal = state.legal_actions(p);
      const auto action = legal[rng.below(legal.size())];
      auto copy = state.clone();
      if (!copy->apply(p, action).ok() || copy->is_over()) break;  // stays unfinished
      state.apply(p, action);
      db.append_action(stored.id, state.version() - 1, p, action);
    }
  }
  std::cout << tables << " unfinished " << game << " tables written to " << argv[1] << "\n";
}
