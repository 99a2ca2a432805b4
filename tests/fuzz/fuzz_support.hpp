#pragma once
// Shared by the engine fuzzers (engine_fuzzer.cpp, merkator_data_fuzzer.cpp): JSON values and action mutations
// made from the input, and a game in progress whose every step is checked against the engine's promises.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "emporium/engine/record.hpp"
#include "emporium/engine/registry.hpp"

namespace emporium_fuzz {

using emporium::engine::Json;
using emporium::engine::Record;
using emporium::engine::State;
using emporium::engine::Viewer;

[[noreturn]] inline void fail(const std::string& what, const Json& action = nullptr) {
  std::fprintf(stderr, "engine invariant broken: %s; action %s\n", what.c_str(),
               action.dump(-1, ' ', false, Json::error_handler_t::replace).c_str());
  std::abort();
}

// A JSON value made from the input: scalars of every kind (edges of the integer ranges included), short
// strings, small arrays and objects, or a piece of an action seen legal.
inline Json fuzz_value(FuzzedDataProvider& in, const std::vector<Json>& seen, int depth = 0) {
  switch (in.ConsumeIntegralInRange<int>(0, depth < 2 ? 11 : 8)) {
    case 0: return nullptr;
    case 1: return in.ConsumeBool();
    case 2: return in.ConsumeIntegralInRange<int>(-3, 40);
    case 3: return in.ConsumeIntegral<std::int64_t>();
    case 4: return in.ConsumeIntegral<std::uint64_t>();
    case 5: return in.ConsumeFloatingPoint<double>();
    case 6: return in.ConsumeIntegralInRange<int>(0, 40) + 0.5;
    case 7: return in.ConsumeRandomLengthString(24);
    case 8: {  // a value of a field of an action seen legal (an id, a good, a location...)
      if (seen.empty()) return "";
      const Json& a = seen[in.ConsumeIntegralInRange<std::size_t>(0, seen.size() - 1)];
      if (!a.is_object() || a.empty()) return a;
      auto it = a.begin();
      std::advance(it, in.ConsumeIntegralInRange<std::size_t>(0, a.size() - 1));
      return *it;
    }
    case 9:
    case 10: {
      Json arr = Json::array();
      for (int n = in.ConsumeIntegralInRange<int>(0, 4); n > 0; --n) arr.push_back(fuzz_value(in, seen, depth + 1));
      return arr;
    }
    default: {
      Json obj = Json::object();
      for (int n = in.ConsumeIntegralInRange<int>(0, 3); n > 0; --n) {
        obj[in.ConsumeRandomLengthString(12)] = fuzz_value(in, seen, depth + 1);
      }
      return obj;
    }
  }
}

// A legal (or once legal) action with one to three changes: a field set to another value, removed, added,
// or an element of an array field changed.
inline Json mutate(Json action, FuzzedDataProvider& in, const std::vector<Json>& seen) {
  for (int n = in.ConsumeIntegralInRange<int>(1, 3); n > 0; --n) {
    if (!action.is_object() || action.empty()) return fuzz_value(in, seen);
    auto it = action.begin();
    std::advance(it, in.ConsumeIntegralInRange<std::size_t>(0, action.size() - 1));
    const std::string key = it.key();
    switch (in.ConsumeIntegralInRange<int>(0, 4)) {
      case 0: action.erase(key); break;
      case 1: action[in.ConsumeRandomLengthString(12)] = fuzz_value(in, seen); break;
      case 2:
        if (action[key].is_array() && !action[key].empty()) {
          auto& arr = action[key];
          arr[in.ConsumeIntegralInRange<std::size_t>(0, arr.size() - 1)] = fuzz_value(in, seen);
          break;
        }
        [[fallthrough]];
      default: action[key] = fuzz_value(in, seen); break;
    }
  }
  return action;
}

// JSON that must read back to the same value (a view or an event list). dump() throws on invalid UTF-8.
// Reading back is the costly half, and many inputs end in a state whose views were seen before: what a text
// reads back to is kept (up to kReadBackBytes of text, then forgotten), and a value that dumps to a known text
// is compared with it. Json::parse is a function of the text, so this is the same check.
inline void check_serializes(const Json& j, const char* what) {
  static std::unordered_map<std::string, Json> read_back;
  static std::size_t read_back_bytes = 0;
  constexpr std::size_t kReadBackBytes = std::size_t{32} << 20;
  std::string text;
  try {
    text = j.dump();
  } catch (const Json::exception& e) {
    fail(std::string(what) + " does not serialize: " + e.what());
  }
  if (const auto it = read_back.find(text); it != read_back.end()) {
    if (it->second != j) fail(std::string(what) + " does not read back the same");
    return;
  }
  Json parsed = Json::parse(text);
  if (parsed != j) fail(std::string(what) + " does not read back the same");
  if (read_back_bytes > kReadBackBytes) {
    read_back.clear();
    read_back_bytes = 0;
  }
  read_back_bytes += text.size();
  read_back.emplace(std::move(text), std::move(parsed));
}

inline std::vector<Viewer> viewers(int players) {
  std::vector<Viewer> out{Viewer::spectator(), Viewer::full()};
  for (int p = 0; p < players; ++p) out.push_back(Viewer::of_player(p));
  return out;
}

class Session {
 public:
  // `seen_text`, when given, is the set of `seen`'s dumps (made once per snapshot instead of once per input).
  Session(std::unique_ptr<State> state, Record record, std::vector<Json> seen = {},
          const std::set<std::string>* seen_text = nullptr)
      : state_(std::move(state)), record_(std::move(record)), seen_(std::move(seen)) {
    if (seen_text != nullptr) {
      seen_text_ = *seen_text;
    } else {
      for (const auto& a : seen_) seen_text_.insert(a.dump());
    }
  }

  State& state() { return *state_; }
  const std::vector<Json>& seen() const { return seen_; }
  const Record& record() const { return record_; }

  // Remembers legal actions (of every turn so far) for later mutations: a bounded pool, up to 4 of each list.
  void remember(const std::vector<Json>& legal) {
    const std::size_t step = legal.size() / 4 + 1;
    for (std::size_t i = 0; i < legal.size() && seen_.size() < kPool; i += step) {
      if (seen_text_.insert(legal[i].dump()).second) seen_.push_back(legal[i]);
    }
  }
  static constexpr std::size_t kPool = 64;

  // Plays a legal move (chosen by `pick`) for one of the players to move. False when the game is over.
  bool play_legal(std::uint64_t pick) {
    const auto movers = state_->to_move();
    if (movers.empty()) return false;
    const int player = movers[pick % movers.size()];
    const auto legal = state_->legal_actions(player);
    if (legal.empty()) fail("a player to move has no legal action");
    remember(legal);
    const Json& action = legal[(pick / movers.size()) % legal.size()];
    const auto before = state_->version();
    const auto result = state_->apply(player, action);
    if (!result.ok()) fail("a legal action was refused: " + result.error->code, action);
    if (state_->version() != before + 1) fail("an accepted action did not bump the version", action);
    record_.actions.push_back({player, action});
    return true;
  }

  // Applies an arbitrary action and checks every promise about it. `legal_now`, when given, is what
  // legal_actions(player) returns in the current state (the caller has just asked; no second call).
  void try_action(int player, const Json& action, const std::vector<Json>* legal_now = nullptr) {
    const bool in_range = player >= 0 && player < state_->num_players();
    std::vector<Json> own;
    if (legal_now == nullptr && in_range) own = state_->legal_actions(player);
    const auto& legal = legal_now != nullptr ? *legal_now : own;
    const auto copy = state_->clone();
    const auto before = state_->version();
    const auto result = state_->apply(player, action);
    if (!result.ok()) {
      if (result.error->code.empty() || result.error->message.empty()) fail("a refusal without code or message", action);
      if (!result.events.empty()) fail("a refusal with events", action);
      if (!state_->equals(*copy) || state_->version() != before) fail("a refused action changed the state", action);
      const std::string text = action.dump(-1, ' ', false, Json::error_handler_t::replace);
      for (const auto& l : legal) {
        if (l.dump() == text) fail("an action listed as legal was refused: " + result.error->code, action);
      }
      return;
    }
    if (std::find(legal.begin(), legal.end(), action) == legal.end()) fail("accepted an action not listed as legal", action);
    if (state_->version() != before + 1) fail("an accepted action did not bump the version", action);
    if (result.events.empty()) fail("an accepted action without events", action);
    for (const auto& v : viewers(state_->num_players())) {
      check_serializes(emporium::engine::events_for(result.events, v), "events");
    }
    record_.actions.push_back({player, action});
  }

  // What must hold of any state: the players to move, and only they, have legal actions (checked after each
  // accepted fuzzed action); with `views`, every viewer's view serializes and reads back the same (at the end).
  void check_state(bool views) const {
    const auto movers = state_->to_move();
    if (state_->is_over() != movers.empty()) fail("is_over() disagrees with to_move()");
    for (int p = 0; p < state_->num_players(); ++p) {
      const bool moving = std::find(movers.begin(), movers.end(), p) != movers.end();
      if (state_->legal_actions(p).empty() == moving) fail("legal actions for player " + std::to_string(p) + " disagree with to_move()");
    }
    if (!views) return;
    for (const auto& v : viewers(state_->num_players())) check_serializes(state_->view(v), "view");
  }

  // The record, through its stored JSON form, replays to an equal state; a finished game has a full result.
  // With `from`: the session's record holds only the actions played since `from`, a state known to be what
  // an earlier record replays to (checked when it was made, the record through its JSON form too); these
  // actions, through the JSON form of a record holding them, are replayed onto a copy of it. Record::to_json
  // writes each action on its own and JSON reads an array element by element, so this is the check of the
  // whole record without writing and reading its (already checked) first part again on every input.
  void check_end(const State* from = nullptr) const {
    const Record stored = Record::from_json(Json::parse(record_.to_json().dump()));
    if (stored.actions != record_.actions) fail("the record does not read back the same");
    if (from == nullptr) {
      const auto replayed = emporium::engine::replay(stored);
      if (replayed.error) fail("replay refused action " + std::to_string(replayed.failed_at) + ": " + replayed.error->code);
      if (!replayed.state->equals(*state_)) fail("replay gives another state");
    } else {
      auto replayed = from->clone();
      for (std::size_t i = 0; i < stored.actions.size(); ++i) {
        const auto& a = stored.actions[i];
        if (!replayed->apply(a.player, a.action).ok()) fail("replay refused action " + std::to_string(i), a.action);
      }
      if (!replayed->equals(*state_)) fail("replay gives another state");
    }
    if (state_->is_over()) {
      const Json result = state_->result();
      if (!result.is_object() || result["ranking"].size() != static_cast<std::size_t>(state_->num_players()) ||
          result["winners"].empty()) {
        fail("a finished game without a full result");
      }
    }
  }

 private:
  std::unique_ptr<State> state_;
  Record record_;
  std::vector<Json> seen_;
  std::set<std::string> seen_text_;
};

}  // namespace emporium_fuzz
