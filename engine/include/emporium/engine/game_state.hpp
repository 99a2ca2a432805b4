#pragma once
// The part of State every game writes the same way. A game keeps its whole state in one plain `Data` value
// (with `players`, `version` and a defaulted operator==), so copies, equality and the version come for free,
// and it reads and applies an action in three steps that apply() calls in a fixed order:
//
//   class FooState final : public GameState<FooState, Data> {
//     ...
//    private:
//     friend GameState;
//     struct Parsed {...};  // an action read from its JSON
//     // `action` is an object with a string "type"; malformed_action for anything else the game cannot read.
//     std::optional<Error> parse(const Json& action, Parsed* out) const;
//     // The rules' verdict for `player`, who is to move: nullptr when allowed, else the refusal's code (and,
//     // when `error` is given, the full error: see refuse()). legal_actions may ask it too.
//     const char* check_rules(int player, const Parsed& action, Error* error) const;
//     // The effects of an allowed action: its events (the version already counted).
//     std::vector<Event> play(int player, const Parsed& action);
//     // The game's own rule on taking back the step just played from `before` (State::allow_undo): true when
//     // it drew, dealt and turned over nothing. The core has checked the rest (the random stream untouched,
//     // nothing told to another player alone, the mover still the one to move, the game not over).
//     bool may_take_back(int player, const Parsed& action, const Data& before) const;
//     // Optional: false when the action can never be taken back, whatever it does (the data is then not copied
//     // before it: a game whose every step draws or hands on the decision pays nothing for undo).
//     bool could_take_back(int player, const Parsed& action) const;
//   };
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "emporium/engine/state.hpp"

namespace emporium::engine {

template <class Derived, class DataT>
class GameState : public State {
 public:
  std::unique_ptr<State> clone() const override {
    return std::make_unique<Derived>(static_cast<const Derived&>(*this));
  }
  int num_players() const override { return d_.players; }
  std::uint64_t version() const override { return d_.version; }
  // The game's data: what may be taken back is bookkeeping beside it (a replay keeps it, a new game has none).
  bool equals(const State& other) const override {
    const auto* o = dynamic_cast<const Derived*>(&other);
    return o && o->d_ == d_;
  }

  const DataT& data() const { return d_; }
  // For scripted tests: direct access to set up a position.
  DataT& data_for_testing() { return d_; }

 protected:
  std::optional<Error> parse_error(const Json& action) const final {
    typename Derived::Parsed parsed;
    return self().parse(action, &parsed);
  }

  ApplyResult step(int player, const Json& action) final {
    typename Derived::Parsed parsed;
    if (auto error = self().parse(action, &parsed)) return ApplyResult::fail(std::move(*error));
    Error error;
    if (self().check_rules(player, parsed, &error)) return ApplyResult::fail(std::move(error));
    std::optional<DataT> before;
    if (undo_on_ && worth_keeping(player, parsed)) before = d_;
    ++d_.version;
    auto events = static_cast<Derived&>(*this).play(player, parsed);
    if (before && may_be_taken_back(player, parsed, *before, events)) {
      steps_.push_back({player, std::move(*before), events});
    } else {
      steps_.clear();  // never back across this step
    }
    return {std::nullopt, std::move(events)};
  }

  int last_step_player() const final { return steps_.empty() ? -1 : steps_.back().player; }

  ApplyResult take_back(int player) final {
    auto taken = std::move(steps_.back());
    steps_.pop_back();
    const auto version = d_.version + 1;  // an undo is an action: versions only grow
    d_ = std::move(taken.before);
    d_.version = version;
    // Each viewer is told what was taken back as they saw it: nothing more than the step told them (nothing of it
    // was told to another player alone, so all but the mover saw what a spectator saw).
    Json mover{{"type", "undo"}, {"player", player}, {"undone", events_for(taken.events, Viewer::of_player(player))}};
    Json others{{"type", "undo"}, {"player", player}, {"undone", events_for(taken.events, Viewer::spectator())}};
    if (mover == others) return {std::nullopt, {Event::public_event(std::move(mover))}};
    return {std::nullopt, {Event::private_event(player, std::move(mover), std::move(others))}};
  }

  void forget_steps() final { steps_.clear(); }

  DataT d_;

 private:
  // A step that may be taken back: the data before it, and its events (told again, as each viewer saw them).
  struct Step {
    int player = -1;
    DataT before;
    std::vector<Event> events;
  };

  // The game's could_take_back, where it has one.
  template <class Parsed>
  bool worth_keeping(int player, const Parsed& parsed) const {
    if constexpr (requires(const Derived& d) { d.could_take_back(player, parsed); }) {
      return self().could_take_back(player, parsed);
    } else {
      return true;
    }
  }

  template <class Parsed>
  bool may_be_taken_back(int player, const Parsed& parsed, const DataT& before,
                         const std::vector<Event>& events) const {
    if (this->is_over() || !(before.rng == d_.rng)) return false;
    const auto movers = this->to_move();
    if (movers.size() != 1 || movers.front() != player) return false;
    for (const auto& e : events) {
      if (e.only_player && *e.only_player != player) return false;
    }
    return self().may_take_back(player, parsed, before);
  }

  const Derived& self() const { return static_cast<const Derived&>(*this); }

  std::vector<Step> steps_;
};

}  // namespace emporium::engine
