#pragma once
// The analysis of a finished game (docs/analysis.md): each player's chance of finishing first after every
// action, the move the analysis prefers at every decision and what the move played lost, and the turning
// points. Chances are estimated by play-outs from the game's states: the game is over, so the analysis may use
// all that its players held, and it exists only for finished games; but each play-out draws its own future (the
// state re-seeded, GameBot::reseed), not the one the game drew.
//
// Pure and deterministic like the engine: the same record, settings and engine version give byte-identical
// output. Every play-out is seeded from (analysis seed, position, play-out index); work is bounded by a number
// of play-outs, never by a clock; nothing runs in parallel.
#include <cstdint>
#include <emporium/engine/json.hpp>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace emporium::analysis {

using Json = nlohmann::json;

// What the analysis reports as "engine_version": the engine's version and a digest of the sources a play-out
// runs (the core, the games and their bots, Merkator's data, the analysis), taken at build time: any change to
// them gives a new version, so a cache keyed on it is recomputed exactly when the numbers could differ.
const char* engine_version();

// Who plays the play-outs: the easy bot's policy in every seat, either on the whole state (`revealed`: nothing
// is hidden after the game; the policy the bots' own searches play out with) or each seat deciding from its own
// view, as the easy bot does at a table (`views`: several times slower, docs/analysis.md).
enum class Policy { revealed, views };
const char* policy_name(Policy policy);
std::optional<Policy> policy_from_name(std::string_view name);

struct Settings {
  std::uint64_t seed = 1;  // the analysis seed (not the game's)
  int playouts = 32;       // play-outs per estimate
  int candidates = 6;      // moves estimated per decision at most, the one played included (1: the chances alone)
  // Play-outs for the whole analysis at most (0: no bound). A plan over it runs with fewer play-outs per
  // estimate (never fewer than kMinPlayouts), so that an analysis always covers the whole game.
  long long budget = 40000;
  Policy policy = Policy::revealed;
  Json to_json() const;
};
inline constexpr int kMinPlayouts = 4;

// Marks, by the estimated loss of the move played against the move preferred (chances in [0, 1]), given only
// when the loss is also beyond the estimates' noise (docs/analysis.md).
inline constexpr double kInaccuracy = 0.05;
inline constexpr double kMistake = 0.10;
inline constexpr double kBlunder = 0.20;

// Why there is no analysis: the record is malformed, does not replay to its result, names a game without a
// bot, or is of a game still running ("analysis exists only for finished games").
struct Refusal {
  std::string message;
};
// Told of the work done, in play-outs, every kProgressEvery of them and at the end (`planned` may overestimate
// by the screenings' savings): a server shows it, and stops an analysis by answering false.
using Progress = std::function<bool(long long done, long long planned)>;
inline constexpr long long kProgressEvery = 16;  // a few ms of play-outs: a stop is quick even under ASan
inline constexpr const char* kCancelled = "the analysis was stopped";

// The analysis of a published record (engine/records: game, players, options, seed, actions, result) as
// analysis.json (docs/analysis.md); Refusal{kCancelled} when `progress` answered false. The progress calls
// change nothing in the result.
std::variant<Json, Refusal> analyse(const Json& record, const Settings& settings, const Progress& progress = {});

// The 95% Wilson score interval of a mean of `n` outcomes in [0, 1].
std::pair<double, double> wilson_interval(double mean, int n);

}  // namespace emporium::analysis
