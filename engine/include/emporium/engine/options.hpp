#pragma once
#include <optional>
#include <string>
#include <vector>

#include "emporium/engine/error.hpp"
#include "emporium/engine/json.hpp"

namespace emporium::engine {

// One option a game accepts when a table is created.
struct OptionSpec {
  enum class Kind { integer, boolean, choice };
  std::string name;
  std::string description;
  Kind kind = Kind::integer;
  Json default_value;
  long long min = 0;                  // integer only
  long long max = 0;                  // integer only
  std::vector<std::string> choices;   // choice only

  Json to_json() const;
};

// Checks the options a client asked for against a game's specs and fills in the defaults.
// Unknown names, wrong types and out-of-range values are errors (code bad_options).
// On success *error is untouched and the complete option object is returned.
std::optional<Json> resolve_options(const std::vector<OptionSpec>& specs, const Json& given,
                                    Error* error);

}  // namespace emporium::engine
