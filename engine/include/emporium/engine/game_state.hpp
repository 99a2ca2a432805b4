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
    ++d_.version;
    return {std::nullopt, static_cast<Derived&>(*this).play(player, parsed)};
  }

  DataT d_;

 private:
  const Derived& self() const { return static_cast<const Derived&>(*this); }
};

}  // namespace emporium::engine
