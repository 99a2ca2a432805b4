// libFuzzer target: one game's apply() with arbitrary JSON actions on random reachable states. Built once per
// game (FUZZ_GAME, see CMakeLists.txt). From the input: a player count and one of the states reached by random
// games made at start-up (every third move, to the end), a few random moves more; then a sequence of steps,
// each a legal move (to go deeper), a legal action of this or an earlier turn with some fields changed,
// removed or added, a raw JSON text, or an action seen legal earlier, from any seat (including seats that do
// not exist). After every step the engine's promises must hold:
//  - apply() never throws; a refused action has a code and a message, no events, and changes nothing
//    (State::equals against a copy taken before, same version);
//  - an accepted action was in the player's legal list, bumps the version by one and has events, which
//    serialize for every viewer to JSON that reads back the same; after it, legal_actions(p) is non-empty
//    exactly for the players to move;
//  - at the end, every viewer's view serializes and reads back the same, the record (through its JSON form)
//    replays to an equal state, and a finished game has a result.
// The two whole-state checks, the views and the replay, cost most and are made once per input, on its last
// state (the states between get the per-step checks above); the views are skipped only when the input ends
// on its snapshot unchanged (checked at start-up). The replay is of the actions played from the snapshot
// on, onto the snapshot (whose own record was written, read back and replayed at start-up). A text already
// read back is not parsed again: what it read back to is kept and compared (check_serializes). Profile and
// figures: docs/testing.md ("Fuzzing").
#include <cstdio>
#include <cstdlib>

#include "emporium/engine/rng.hpp"
#include "fuzz_support.hpp"
#include "merkator/data_file.hpp"

using namespace emporium_fuzz;

namespace {

// Reachable states to start from, made once: for each player count, random games from the start to the end
// with a snapshot every few moves (and the record that leads there), so an input can start deep in a game
// without paying for the moves. Each game's pool of legal actions seen along the way goes with it.
struct Snapshot {
  std::shared_ptr<const State> state;
  Record record;
  std::shared_ptr<const std::vector<Json>> seen;
  std::shared_ptr<const std::set<std::string>> seen_text;  // their dumps
};
std::vector<std::vector<Snapshot>> snapshots;  // by player count - min_players

void make_snapshots() {
  const auto* info = emporium::engine::find_game(FUZZ_GAME);
  for (int players = info->min_players; players <= info->max_players; ++players) {
    auto& list = snapshots.emplace_back();
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      auto created = emporium::engine::create_game(FUZZ_GAME, players, Json::object(), seed);
      if (created.error) fail("create_game: " + created.error->message);
      Session game(std::move(created.state), Record{FUZZ_GAME, players, created.options, seed, {}});
      std::vector<std::size_t> mine;  // this game's snapshots
      emporium::engine::Rng rng(seed * 7919);
      int moves = 0;
      do {
        if (moves++ % 3 == 0) {
          mine.push_back(list.size());
          list.push_back({game.state().clone(), game.record(), nullptr, nullptr});
        }
      } while (game.play_legal(rng.next()));
      list.push_back({game.state().clone(), game.record(), nullptr, nullptr});  // the end
      mine.push_back(list.size() - 1);
      const auto seen = std::make_shared<const std::vector<Json>>(game.seen());
      auto seen_text = std::make_shared<std::set<std::string>>();
      for (const auto& a : *seen) seen_text->insert(a.dump());
      for (auto i : mine) {
        list[i].seen = seen;
        list[i].seen_text = seen_text;
        // What the fuzzing takes for granted about a snapshot: its record replays to it, its views serialize.
        Session check(list[i].state->clone(), list[i].record);
        check.check_state(true);
        check.check_end();
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // The game data files, loaded as the server loads them (every game can then be created).
  if (auto error = emporium::engine::merkator::load_data_file(EMPORIUM_MERKATOR_DATA)) {
    std::fprintf(stderr, "%s\n", error->c_str());
    std::abort();
  }
  make_snapshots();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const auto& list = snapshots[in.ConsumeIntegralInRange<std::size_t>(0, snapshots.size() - 1)];
  const Snapshot& start = list[in.ConsumeIntegralInRange<std::size_t>(0, list.size() - 1)];
  // The session's record holds only the actions played from the snapshot on (check_end replays them onto it).
  const Record& r = start.record;
  Session session(start.state->clone(), Record{r.game, r.players, r.options, r.seed, {}}, *start.seen,
                  start.seen_text.get());

  // A few more random legal moves, so that states between and beyond the snapshots are reached too.
  emporium::engine::Rng rng(in.ConsumeIntegral<std::uint64_t>());
  for (int n = in.ConsumeIntegralInRange<int>(0, 7); n > 0 && session.play_legal(rng.next());) --n;

  for (int steps = 0; steps < 64 && in.remaining_bytes() > 0; ++steps) {
    State& state = session.state();
    const auto movers = state.to_move();
    // Mostly a player to move; sometimes anyone, or a seat that does not exist.
    int player = in.ConsumeIntegralInRange<int>(-1, state.num_players());
    if (!movers.empty() && in.ConsumeBool()) player = movers[static_cast<std::size_t>(player + 1) % movers.size()];
    const auto legal = player >= 0 && player < state.num_players() ? state.legal_actions(player) : std::vector<Json>{};
    session.remember(legal);
    const auto version = state.version();
    switch (in.ConsumeIntegralInRange<int>(0, 5)) {
      case 0:
        session.play_legal(in.ConsumeIntegral<std::uint32_t>());
        break;
      case 1: {  // a legal action, changed
        const auto& pool = legal.empty() ? session.seen() : legal;
        if (pool.empty()) break;
        const Json base = pool[in.ConsumeIntegralInRange<std::size_t>(0, pool.size() - 1)];
        session.try_action(player, mutate(base, in, session.seen()), &legal);
        break;
      }
      case 2: {  // an action seen legal at some point, as it was
        if (session.seen().empty()) break;
        session.try_action(player, session.seen()[in.ConsumeIntegralInRange<std::size_t>(0, session.seen().size() - 1)],
                           &legal);
        break;
      }
      case 3: {  // raw JSON text (a string value when it is not JSON)
        const std::string text = in.ConsumeRandomLengthString(256);
        Json action = Json::parse(text, nullptr, false);
        if (action.is_discarded()) action = text;
        session.try_action(player, action, &legal);
        break;
      }
      default:  // any JSON value, or a legal action changed
        session.try_action(player, in.ConsumeBool() || legal.empty() ? fuzz_value(in, session.seen())
                                                                     : mutate(legal.front(), in, session.seen()),
                           &legal);
        break;
    }
    if (state.version() != version) session.check_state(false);
  }
  // The views of a snapshot were checked when it was made.
  const bool changed = session.state().version() != start.state->version();
  session.check_state(changed);
  session.check_end(start.state.get());
  return 0;
}
