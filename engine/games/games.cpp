// Every game the engine knows, each with its computer player: the one place that names them. A new game adds
// its line here, in the order clients list the games, and its id to EMPORIUM_GAMES in CMakeLists.txt (a test
// checks that the two agree). docs/adding-a-game.md lists everything else a game touches.
#include "emporium/engine/registry.hpp"
#include "medici/bot.hpp"
#include "medici/medici.hpp"
#include "medina/bot.hpp"
#include "medina/medina.hpp"
#include "merkator/bot.hpp"
#include "merkator/merkator.hpp"
#include "silkroad/bot.hpp"
#include "silkroad/silkroad.hpp"

namespace emporium::engine {
namespace {

GameInfo with_bot(GameInfo game, const bot::GameBot& bot) {
  game.bot = &bot;
  return game;
}

}  // namespace

const std::vector<GameInfo>& all_games() {
  static const std::vector<GameInfo> games = {
      with_bot(medici::game_info(), medici::bot()),
      with_bot(merkator::game_info(), merkator::bot()),
      with_bot(medina::game_info(), medina::bot()),
      with_bot(silkroad::game_info(), silkroad::bot()),
  };
  return games;
}

}  // namespace emporium::engine
