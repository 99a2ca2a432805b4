// emporium-analyse: the analysis of a finished game's record (GET /tables/<id>/record.json), offline, with the same
// engine and bots the server has (docs/analysis.md). The same record, engine version and settings give the same
// analysis, byte for byte.
//   emporium-analyse [--merkator-data FILE] [--playouts N] [--candidates K]
//   [--budget B] [--seed S]
//                    [--policy revealed|views]
//                    (record.json | --stdin)
// Prints analysis.json on stdout. Exit status: 0 done, 1 no analysis (the line says why: a running game's record, one
// that does not replay), 2 bad usage or unreadable input.
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <emporium/analysis/analysis.hpp>
#include <emporium/records/record_input.hpp>

namespace {

int usage() {
  std::cerr << "usage: emporium-analyse [--merkator-data FILE] [--playouts N] [--candidates K] [--budget B]\n"
               "                        [--seed S] [--policy revealed|views] (record.json | --stdin)\n";
  return 2;
}

// A whole non-negative decimal number, or nothing.
std::optional<unsigned long long> number(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  try {
    return std::stoull(text);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  const char* env_data = std::getenv("EMPORIUM_MERKATOR_DATA");
  std::string merkator_data = env_data ? env_data : EMPORIUM_MERKATOR_DATA;
  emporium::analysis::Settings settings;
  std::optional<std::string> input;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const bool has_value = i + 1 < args.size();
    if (args[i] == "--merkator-data" && has_value) {
      merkator_data = args[++i];
    } else if (args[i] == "--policy" && has_value) {
      const auto policy = emporium::analysis::policy_from_name(args[++i]);
      if (!policy) {
        std::cerr << "emporium-analyse: --policy is revealed or views\n";
        return 2;
      }
      settings.policy = *policy;
    } else if ((args[i] == "--playouts" || args[i] == "--candidates" || args[i] == "--budget" || args[i] == "--seed") &&
               has_value) {
      const std::string& name = args[i];
      const auto value = number(args[++i]);
      if (!value || (name != "--seed" && (*value > 1000000000ULL || (name != "--budget" && *value == 0)))) {
        std::cerr << "emporium-analyse: " << name << " takes a whole number"
                  << (name == "--seed"     ? ""
                      : name == "--budget" ? " (0: no bound)"
                                           : " of at least 1")
                  << "\n";
        return 2;
      }
      if (name == "--playouts") settings.playouts = static_cast<int>(*value);
      if (name == "--candidates") settings.candidates = static_cast<int>(*value);
      if (name == "--budget") settings.budget = static_cast<long long>(*value);
      if (name == "--seed") settings.seed = *value;
    } else if ((args[i] == "--stdin" || args[i].rfind("--", 0) != 0) && !input) {
      input = args[i];
    } else {
      return usage();
    }
  }
  if (!input) return usage();

  auto read = emporium::records::read_record_input(*input, merkator_data);
  if (const auto* error = std::get_if<std::string>(&read)) {
    std::cerr << "emporium-analyse: " << *error << "\n";
    return 2;
  }
  const nlohmann::json& record = std::get<nlohmann::json>(read);
  const auto analysis = emporium::analysis::analyse(record, settings);
  if (const auto* refusal = std::get_if<emporium::analysis::Refusal>(&analysis)) {
    std::cerr << "emporium-analyse: " << refusal->message << "\n";
    return 1;
  }
  std::cout << std::get<nlohmann::json>(analysis).dump() << "\n";
  return 0;
}
