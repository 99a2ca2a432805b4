#pragma once
// The part of State every game writes the same way: a game keeps its whole state in one plain
// `Data` value (with `players`, `version` and a defaulted operator==), so copies, equality and the
// version come for free. A game derives as `class FooState final : public GameState<FooState, Data>`.
#include <memory>

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
  DataT d_;
};

}  // namespace emporium::engine
