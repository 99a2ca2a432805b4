#include "emporium/analysis/analysis.hpp"

#include <algorithm>
#include <cmath>
#include <emporium/engine/bot.hpp>
#include <emporium/engine/record.hpp>
#include <memory>
#include <numeric>
#include <optional>
#include <utility>
#include <vector>

#include "analysis_version.hpp"  // generated: kSourceDigest (CMakeLists.txt)

namespace emporium::analysis {

namespace {

using engine::State;
using engine::bot::GameBot;

// The engine's version and the build's digest of the sources a play-out runs.
const std::string kVersion = std::string(engine::engine_version()) + "+" + kSourceDigest;

// Seeds are a hash of what names a play-out, so that any one can be recomputed alone.
std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
  std::uint64_t state = a ^ (b + 0x9e3779b97f4a7c15ULL + (a << 6) + (a >> 2));
  return engine::splitmix64(state);
}

// Where a play-out's seed comes from: a position's chances, or a decision (every candidate of one decision shares its
// play-out seeds: common random numbers, so a difference is the move's).
enum class Tag : std::uint64_t { position = 1, decision = 2 };
std::uint64_t playout_seed(std::uint64_t seed, Tag tag, std::uint64_t version, int index) {
  return mix(mix(mix(seed, static_cast<std::uint64_t>(tag)), version), static_cast<std::uint64_t>(index));
}

// Each player's share of first place in a finished game: 1/k for each of k winners.
std::vector<double> shares_of(const State& state) {
  std::vector<double> shares(static_cast<std::size_t>(state.num_players()), 0.0);
  const Json result = state.result();
  const Json& winners = result.at("winners");
  for (const auto& w : winners) shares.at(w.get<std::size_t>()) = 1.0 / static_cast<double>(winners.size());
  return shares;
}

// Plays `state` to its end with the easy bot's policy in every seat: on the whole state (`revealed`, as the bots' own
// searches play out their sampled states), or each seat deciding from its own view (`views`).
std::vector<double> play_out(const GameBot& bot, Policy policy, std::unique_ptr<State> state, std::uint64_t seed) {
  engine::Rng rng{engine::Seed(seed)};
  while (!state->is_over()) {
    const int player = state->to_move().front();
    Json action;
    if (policy == Policy::revealed) {
      action = bot.quick_action(*state, player, rng);
    } else {
      const auto legal = state->legal_actions(player);
      action = engine::bot::decide(bot, state->view(engine::Viewer::of_player(player)), player, legal,
                                   engine::bot::Level::easy, rng.next())
                   .action;
    }
    if (state->apply(player, action).ok()) continue;
    // A quick policy must answer a legal action; should one not, the play-out goes on (as the bots' searches do).
    const auto legal = state->legal_actions(player);
    state->apply(player, legal[rng.below(legal.size())]);
  }
  return shares_of(*state);
}

// The play-outs of a position, or of a move from one: each one's shares per player. Exact (every play-out alike, no
// noise) when the game is over there (after the move).
struct Estimate {
  Json move;  // the move estimated (null for a position's own chances)
  int seat = -1;  // who makes it
  const State* position = nullptr;  // where every play-out starts, re-seeded (then the move)
  std::unique_ptr<State> state;  // after the move, as the game has it: whether it ended the game, and how
  bool exact = false;  // set by Runner::extend
  std::vector<std::vector<double>> runs = {};

  double mean(int player) const {
    double total = 0;
    for (const auto& run : runs) total += run[static_cast<std::size_t>(player)];
    return runs.empty() ? 0.0 : total / static_cast<double>(runs.size());
  }
  std::pair<double, double> interval(int player) const {
    const double m = mean(player);
    return exact ? std::pair{m, m} : wilson_interval(m, static_cast<int>(runs.size()));
  }
};

// Thrown out of the play-outs when the progress callback asks to stop.
struct Stopped {};

// Keeps the re-seeding's random stream apart from the play-out's policy's (seeded with the play-out's seed itself).
constexpr std::uint64_t kReseedTag = 0x72657365656421ULL;

class Runner {
 public:
  Runner(const GameBot& bot, const Settings& settings, const Progress& progress, long long planned)
      : bot_(bot), settings_(settings), progress_(progress), planned_(planned) {}

  // Runs play-outs from `e` until it has `n`.
  void extend(Estimate& e, int n, Tag tag, std::uint64_t version) {
    e.exact = e.state->is_over();
    while (static_cast<int>(e.runs.size()) < n) {
      const int index = static_cast<int>(e.runs.size());
      const std::uint64_t seed = playout_seed(settings_.seed, tag, version, index);
      e.runs.push_back(e.exact ? shares_of(*e.state) : play_out(bot_, settings_.policy, start_of(e, seed), seed));
      if (++run_ % kProgressEvery == 0) tell();
    }
  }
  long long run() const { return run_; }
  // A play-out's start: the position with its chance re-drawn from the play-out's seed (a play-out must not know the
  // game's own future draws, those of the move included), then the move. Every move of a decision gets the same
  // re-drawn future in its play-out i.
  std::unique_ptr<State> start_of(const Estimate& e, std::uint64_t seed) const {
    auto state = bot_.reseed(*e.position, engine::Seed(mix(seed, kReseedTag)));
    if (!e.move.is_null()) state->apply(e.seat, e.move);  // legal: the re-seeded position allows what it did
    state->allow_undo(false);  // a play-out's moves are the policy's, never a step back
    return state;
  }
  const Settings& settings() const { return settings_; }
  void tell() const {
    if (progress_ && !progress_(run_, std::max(run_, planned_))) throw Stopped{};
  }

 private:
  const GameBot& bot_;
  const Settings& settings_;
  const Progress& progress_;
  const long long planned_;
  long long run_ = 0;
};

double rounded(double x) { return std::round(x * 1e4) / 1e4; }

Json position_json(std::size_t version, const Estimate& e, int players) {
  Json chances = Json::array(), intervals = Json::array();
  for (int p = 0; p < players; ++p) {
    const auto [lo, hi] = e.interval(p);
    chances.push_back(rounded(e.mean(p)));
    intervals.push_back({rounded(lo), rounded(hi)});
  }
  return {{"version", version}, {"chances", chances}, {"intervals", intervals}};
}

// One decision to analyse: the position's index, who moves, and the moves to estimate (the one played first).
struct Plan {
  std::size_t version = 0;
  int seat = -1;
  bool forced = false;  // one legal move: nothing to choose, only the move played is estimated
  std::vector<Json> moves;
};

// The play-outs of a screening (every move when a decision has more than the cap): a quarter of the estimate.
int screen_of(int playouts) { return std::max(1, playouts / 4); }

long long planned_playouts(const std::vector<Plan>& plans, int playouts, int cap) {
  long long total = playouts;  // the start
  for (const auto& plan : plans) {
    const long long moves = static_cast<long long>(plan.moves.size());
    total += playouts;  // the position after the move
    if (moves > 1) {
      total += playouts * std::min<long long>(moves, cap) + screen_of(playouts) * std::max<long long>(0, moves - cap);
    }
  }
  return total;
}

// The z beyond which a paired difference is past noise: 95% two-sided, Bonferroni-corrected for comparing the move
// played with up to seven others (the move preferred is the best of several noisy estimates).
double z_for(std::size_t others) {
  static constexpr double kZ[] = {1.960, 1.960, 2.241, 2.394, 2.498, 2.576, 2.638, 2.690};
  return kZ[std::min<std::size_t>(others, std::size(kZ) - 1)];
}

// Whether `preferred` beats `played` for `seat` beyond noise: the mean of the paired differences (the same play-out
// seeds) exceeds z standard errors.
bool beyond_noise(const Estimate& preferred, const Estimate& played, int seat, double z) {
  const std::size_t n = std::min(preferred.runs.size(), played.runs.size());
  if (n == 0) return false;
  std::vector<double> d(n);
  for (std::size_t i = 0; i < n; ++i) {
    d[i] = preferred.runs[i][static_cast<std::size_t>(seat)] - played.runs[i][static_cast<std::size_t>(seat)];
  }
  const double mean = std::accumulate(d.begin(), d.end(), 0.0) / static_cast<double>(n);
  double var = 0;
  for (double x : d) var += (x - mean) * (x - mean);
  const double se = n > 1 ? std::sqrt(var / static_cast<double>(n - 1) / static_cast<double>(n)) : 0.0;
  return mean > 1e-9 && mean > z * se;
}

const char* mark_of(double loss) {
  if (loss >= kBlunder) return "blunder";
  if (loss >= kMistake) return "mistake";
  if (loss >= kInaccuracy) return "inaccuracy";
  return nullptr;
}

struct Replay {
  std::vector<std::unique_ptr<State>> states;  // before the first action, then after each
  std::vector<engine::RecordedAction> actions;
};

std::variant<Replay, Refusal> replay_record(const Json& record) {
  constexpr const char* kRunning = "analysis exists only for finished games";
  if (!record.is_object() || !record.contains("result") || record["result"].is_null()) return Refusal{kRunning};
  engine::Record game;
  try {
    game = engine::Record::from_json(record);
  } catch (const Json::exception& e) {
    return Refusal{std::string("malformed record: ") + e.what()};
  }
  auto created = engine::create_game(game.game, game.players, game.options, game.seed);
  if (created.error) return Refusal{"the game cannot be created: " + created.error->message};
  created.state->allow_undo(true);  // the undos its table allowed
  Replay replay;
  replay.states.push_back(std::move(created.state));
  for (std::size_t i = 0; i < game.actions.size(); ++i) {
    auto next = replay.states.back()->clone();
    const auto result = next->apply(game.actions[i].player, game.actions[i].action);
    if (!result.ok()) {
      return Refusal{"move " + std::to_string(i + 1) + " is refused by the rules: " + result.error->message};
    }
    replay.states.push_back(std::move(next));
  }
  if (!replay.states.back()->is_over()) return Refusal{std::string(kRunning) + " (the moves do not end it)"};
  if (replay.states.back()->result() != record["result"]) {
    return Refusal{"the moves end the game with another result than the record's"};
  }
  replay.actions = std::move(game.actions);
  return replay;
}

// The actions that moved the eventual winners' chance most (their mean, with several winners), largest first.
Json turning_points(const Json& positions, const std::vector<engine::RecordedAction>& actions, const Json& winners) {
  constexpr std::size_t kTurningPoints = 3;
  auto winners_chance = [&](std::size_t v) {
    double total = 0;
    for (const auto& w : winners) total += positions[v].at("chances").at(w.get<std::size_t>()).get<double>();
    return total / static_cast<double>(std::max<std::size_t>(1, winners.size()));
  };
  std::vector<std::pair<std::size_t, double>> swings;
  for (std::size_t v = 1; v < positions.size(); ++v) {
    const double swing = winners_chance(v) - winners_chance(v - 1);
    if (std::abs(swing) > 1e-9) swings.emplace_back(v, swing);
  }
  std::stable_sort(swings.begin(), swings.end(),
                   [](const auto& a, const auto& b) { return std::abs(a.second) > std::abs(b.second); });
  if (swings.size() > kTurningPoints) swings.resize(kTurningPoints);
  Json points = Json::array();
  for (const auto& [v, swing] : swings) {
    points.push_back({{"version", v},
                      {"seat", actions[v - 1].player},
                      {"action", actions[v - 1].action},
                      {"winners", winners},
                      {"before", rounded(winners_chance(v - 1))},
                      {"after", rounded(winners_chance(v))},
                      {"swing", rounded(swing)}});
  }
  return points;
}

// The play-outs of every position and decision, and the document they give.
Json analyse_plans(const Json& record, const std::vector<std::unique_ptr<State>>& states,
                   const std::vector<engine::RecordedAction>& actions, const std::vector<Plan>& plans, int playouts,
                   Runner& runner) {
  const Settings& settings = runner.settings();
  const std::string game = record.at("game").get<std::string>();
  const int players = states.front()->num_players();
  const int cap = settings.candidates;
  Json positions = Json::array(), decisions = Json::array();
  // A position's chances: play-outs from the position itself, so that they know what its actions showed (the tile
  // a draw drew) and nothing of what is still unseen.
  auto position = [&](std::size_t version) {
    Estimate e{Json(), -1, states[version].get(), states[version]->clone()};
    runner.extend(e, playouts, Tag::position, version);
    return e;
  };
  positions.push_back(position_json(0, position(0), players));

  struct Tally {
    int decisions = 0, best = 0, inaccuracies = 0, mistakes = 0, blunders = 0;
  };
  std::vector<Tally> tallies(static_cast<std::size_t>(players));
  for (const auto& plan : plans) {
    Estimate after = position(plan.version + 1);
    positions.push_back(position_json(plan.version + 1, after, players));
    if (plan.forced) continue;
    // The moves of a decision, each from the position it was chosen in: none knows what it will draw.
    std::vector<Estimate> moves;
    for (const auto& move : plan.moves) {
      auto state = states[plan.version]->clone();
      if (!state->apply(plan.seat, move).ok()) continue;  // a candidate the rules refuse after all
      moves.push_back(Estimate{move, plan.seat, states[plan.version].get(), std::move(state)});
    }
    if (moves.size() == 1) {  // nothing to compare: the move played's chance is the position's after it
      after.move = moves.front().move;
      moves.front() = std::move(after);
    }
    // Too many moves: a screening run for all, then the best of them (by the mover's chance) go on.
    if (static_cast<int>(moves.size()) > cap) {
      for (auto& e : moves) runner.extend(e, screen_of(playouts), Tag::decision, plan.version);
      std::vector<std::size_t> order(moves.size() - 1);
      std::iota(order.begin(), order.end(), 1);
      std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return moves[a].mean(plan.seat) > moves[b].mean(plan.seat);
      });
      order.resize(static_cast<std::size_t>(cap - 1));
      std::sort(order.begin(), order.end());
      std::vector<Estimate> kept;
      kept.push_back(std::move(moves.front()));
      for (std::size_t i : order) kept.push_back(std::move(moves[i]));
      moves = std::move(kept);
    }
    for (auto& e : moves) runner.extend(e, playouts, Tag::decision, plan.version);
    const Estimate& played = moves.front();

    std::size_t best = 0;  // the move played unless another is strictly better
    for (std::size_t i = 1; i < moves.size(); ++i) {
      if (moves[i].mean(plan.seat) > moves[best].mean(plan.seat)) best = i;
    }
    const Estimate& preferred = moves[best];
    const double loss = preferred.mean(plan.seat) - played.mean(plan.seat);
    const bool significant = best != 0 && beyond_noise(preferred, played, plan.seat, z_for(moves.size() - 1));
    const char* mark = significant ? mark_of(loss) : nullptr;
    auto& tally = tallies[static_cast<std::size_t>(plan.seat)];
    ++tally.decisions;
    if (!significant) ++tally.best;
    const std::string_view marked = mark ? mark : "";
    tally.inaccuracies += marked == "inaccuracy";
    tally.mistakes += marked == "mistake";
    tally.blunders += marked == "blunder";

    Json candidates = Json::array();
    for (const auto& e : moves) {
      const auto [lo, hi] = e.interval(plan.seat);
      candidates.push_back(
          {{"move", e.move}, {"chance", rounded(e.mean(plan.seat))}, {"interval", {rounded(lo), rounded(hi)}}});
    }
    decisions.push_back({{"version", plan.version},
                         {"seat", plan.seat},
                         {"played", played.move},
                         {"preferred", preferred.move},
                         {"chance_played", rounded(played.mean(plan.seat))},
                         {"chance_preferred", rounded(preferred.mean(plan.seat))},
                         {"loss", rounded(loss)},
                         {"mark", mark ? Json(mark) : Json(nullptr)},
                         {"candidates", candidates}});
  }

  Json summary = Json::array();
  for (int p = 0; p < players; ++p) {
    const auto& t = tallies[static_cast<std::size_t>(p)];
    summary.push_back({{"seat", p},
                       {"decisions", t.decisions},
                       {"inaccuracies", t.inaccuracies},
                       {"mistakes", t.mistakes},
                       {"blunders", t.blunders},
                       {"best_found", t.decisions ? rounded(static_cast<double>(t.best) / t.decisions) : 1.0}});
  }
  runner.tell();
  Json used = settings.to_json();
  used["playouts_used"] = playouts;
  used["playouts_run"] = runner.run();
  return Json{{"engine_version", kVersion},
              {"game", game},
              {"settings", used},
              {"positions", positions},
              {"decisions", decisions},
              {"summary", summary},
              {"turning_points", turning_points(positions, actions, states.back()->result().at("winners"))}};
}

}  // namespace

const char* policy_name(Policy policy) { return policy == Policy::revealed ? "revealed" : "views"; }

std::optional<Policy> policy_from_name(std::string_view name) {
  for (Policy policy : {Policy::revealed, Policy::views}) {
    if (name == policy_name(policy)) return policy;
  }
  return std::nullopt;
}

const char* engine_version() { return kVersion.c_str(); }

std::pair<double, double> wilson_interval(double mean, int n) {
  if (n <= 0) return {0.0, 1.0};
  constexpr double z = 1.96;
  const double nn = static_cast<double>(n), z2 = z * z;
  const double centre = (mean + z2 / (2 * nn)) / (1 + z2 / nn);
  const double half = z / (1 + z2 / nn) * std::sqrt(mean * (1 - mean) / nn + z2 / (4 * nn * nn));
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

Json Settings::to_json() const {
  // The seed as a string: JSON numbers are not safe past 2^53 in most readers.
  return {{"seed", std::to_string(seed)},
          {"policy", policy_name(policy)},
          {"playouts", playouts},
          {"candidates", candidates},
          {"budget", budget}};
}

namespace {

using engine::is_undo;

// Which actions were taken back, and the undos that took them: an undo takes back the latest action not yet
// taken back (the engine allows nothing else).
std::vector<bool> taken_back_actions(const std::vector<engine::RecordedAction>& actions) {
  std::vector<bool> out(actions.size(), false);
  std::vector<std::size_t> standing;
  for (std::size_t v = 0; v < actions.size(); ++v) {
    if (!is_undo(actions[v].action)) {
      standing.push_back(v);
    } else if (!standing.empty()) {
      out[standing.back()] = out[v] = true;
      standing.pop_back();
    }
  }
  return out;
}

}  // namespace

std::variant<Json, Refusal> analyse(const Json& record, const Settings& settings, const Progress& progress) {
  if (settings.playouts < 1 || settings.candidates < 1 || settings.budget < 0) {
    return Refusal{
        "the settings need at least one play-out and one candidate, "
        "and a budget of 0 or more"};
  }
  auto replayed = replay_record(record);
  if (auto* refusal = std::get_if<Refusal>(&replayed)) return *refusal;
  auto& [states, actions] = std::get<Replay>(replayed);
  const std::string game = record.at("game").get<std::string>();
  const GameBot* bot = engine::bot::find_bot(game);
  if (!bot) return Refusal{"the game " + game + " has no bot to play out its positions"};

  // The moves to estimate at each decision: the one played, then the bot's candidates in the real state (none
  // with a cap of 1: the chances alone, no second look).
  const int cap = settings.candidates;
  const auto taken_back = taken_back_actions(actions);
  std::vector<Plan> plans;
  for (std::size_t v = 0; v < actions.size(); ++v) {
    Plan plan{v, actions[v].player, false, {actions[v].action}};
    auto legal = states[v]->legal_actions(plan.seat);
    std::erase_if(legal, is_undo);
    // A step taken back, and the undo, are no decisions of the game: their positions only are estimated.
    plan.forced = legal.size() <= 1 || taken_back[v];
    if (!plan.forced && cap > 1) {
      for (auto& move : bot->candidates(*states[v], plan.seat, legal)) {
        if (move != plan.moves.front()) plan.moves.push_back(std::move(move));
      }
    }
    plans.push_back(std::move(plan));
  }
  int playouts = settings.playouts;
  while (playouts > kMinPlayouts && settings.budget > 0 && planned_playouts(plans, playouts, cap) > settings.budget) {
    --playouts;
  }

  Runner runner(*bot, settings, progress, planned_playouts(plans, playouts, cap));
  try {
    return analyse_plans(record, states, actions, plans, playouts, runner);
  } catch (const Stopped&) {
    return Refusal{kCancelled};
  }
}

}  // namespace emporium::analysis
