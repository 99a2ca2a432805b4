#include "emporium/engine/options.hpp"

#include <algorithm>

namespace emporium::engine {

Json OptionSpec::to_json() const {
  Json j{{"name", name}, {"description", description}, {"default", default_value}};
  switch (kind) {
    case Kind::integer:
      j["type"] = "integer";
      j["min"] = min;
      j["max"] = max;
      break;
    case Kind::boolean:
      j["type"] = "boolean";
      break;
    case Kind::choice:
      j["type"] = "choice";
      j["choices"] = choices;
      break;
  }
  return j;
}

static std::optional<std::string> check_value(const OptionSpec& spec, const Json& v) {
  switch (spec.kind) {
    case OptionSpec::Kind::integer:
      if (!v.is_number_integer()) return "option '" + spec.name + "' must be an integer";
      if (v.get<long long>() < spec.min || v.get<long long>() > spec.max) {
        return "option '" + spec.name + "' must be between " + std::to_string(spec.min) + " and " +
               std::to_string(spec.max);
      }
      return std::nullopt;
    case OptionSpec::Kind::boolean:
      if (!v.is_boolean()) return "option '" + spec.name + "' must be true or false";
      return std::nullopt;
    case OptionSpec::Kind::choice:
      if (!v.is_string() ||
          std::find(spec.choices.begin(), spec.choices.end(), v.get<std::string>()) ==
              spec.choices.end()) {
        std::string list;
        for (const auto& c : spec.choices) list += (list.empty() ? "" : ", ") + c;
        return "option '" + spec.name + "' must be one of: " + list;
      }
      return std::nullopt;
  }
  return "unknown option kind";
}

std::optional<Json> resolve_options(const std::vector<OptionSpec>& specs, const Json& given,
                                    Error* error) {
  const Json input = given.is_null() ? Json::object() : given;
  if (!input.is_object()) {
    *error = make_error(errc::bad_options, "options must be a JSON object");
    return std::nullopt;
  }
  for (const auto& [name, value] : input.items()) {
    // (An init-capture: clang before 16 cannot capture a structured binding, and the fuzzers build with clang.)
    auto it = std::find_if(specs.begin(), specs.end(), [&key = name](const auto& s) { return s.name == key; });
    if (it == specs.end()) {
      *error = make_error(errc::bad_options, "unknown option '" + name + "'");
      return std::nullopt;
    }
    if (auto problem = check_value(*it, value)) {
      *error = make_error(errc::bad_options, *problem);
      return std::nullopt;
    }
  }
  Json resolved = Json::object();
  for (const auto& spec : specs) {
    resolved[spec.name] = input.contains(spec.name) ? input.at(spec.name) : spec.default_value;
  }
  return resolved;
}

}  // namespace emporium::engine
