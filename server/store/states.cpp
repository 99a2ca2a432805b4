#include "store/states.hpp"

#include <array>
#include <utility>

namespace emporium::server {
namespace {

constexpr std::array<std::pair<TableState, std::string_view>, 3> kTableStates{{
    {TableState::waiting, "waiting"},
    {TableState::playing, "playing"},
    {TableState::finished, "finished"},
}};
constexpr std::array<std::pair<StandIn, std::string_view>, 4> kStandIns{{
    {StandIn::none, ""},
    {StandIn::left, "left"},
    {StandIn::absent, "absent"},
    {StandIn::timeout, "timeout"},
}};

template <class Enum, std::size_t N>
std::string_view name_in(const std::array<std::pair<Enum, std::string_view>, N>& names, Enum value) {
  for (const auto& [v, name] : names) {
    if (v == value) return name;
  }
  return {};
}

template <class Enum, std::size_t N>
std::optional<Enum> value_in(const std::array<std::pair<Enum, std::string_view>, N>& names, std::string_view name) {
  for (const auto& [value, n] : names) {
    if (n == name) return value;
  }
  return std::nullopt;
}

}  // namespace

std::string_view name_of(TableState state) { return name_in(kTableStates, state); }
std::optional<TableState> table_state_named(std::string_view name) { return value_in(kTableStates, name); }
std::string_view name_of(StandIn stand_in) { return name_in(kStandIns, stand_in); }
std::optional<StandIn> stand_in_named(std::string_view name) { return value_in(kStandIns, name); }

}  // namespace emporium::server
