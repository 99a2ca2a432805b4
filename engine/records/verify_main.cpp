// emporium-verify: checks a finished game's record (GET /tables/<id>/record.json) offline, with the same
// engine the server plays by: the seed against the commitment published before the first move, every move
// against the rules, and the result.
//   emporium-verify [--merkator-data FILE] record.json | --stdin
//   emporium-verify [--merkator-data FILE] record.json --view-at N   (prints the full view after N moves)
// Exit status: 0 verified, 1 a check failed (the line says which), 2 bad usage or unreadable input.
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <emporium/records/record_input.hpp>
#include <emporium/records/records.hpp>

namespace {

int usage() {
  std::cerr << "usage: emporium-verify [--merkator-data FILE] (record.json | --stdin) [--view-at N]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  const char* env_data = std::getenv("EMPORIUM_MERKATOR_DATA");
  std::string merkator_data = env_data ? env_data : EMPORIUM_MERKATOR_DATA;
  std::optional<std::string> input;
  std::optional<unsigned long long> view_at;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--merkator-data" && i + 1 < args.size()) {
      merkator_data = args[++i];
    } else if (args[i] == "--view-at" && i + 1 < args.size()) {
      try {
        view_at = std::stoull(args[++i]);
      } catch (const std::exception&) {
        return usage();
      }
    } else if ((args[i] == "--stdin" || args[i].rfind("--", 0) != 0) && !input) {
      input = args[i];
    } else {
      return usage();
    }
  }
  if (!input) return usage();

  auto read = emporium::records::read_record_input(*input, merkator_data);
  if (const auto* error = std::get_if<std::string>(&read)) {
    std::cerr << "emporium-verify: " << *error << "\n";
    return 2;
  }
  const nlohmann::json& record = std::get<nlohmann::json>(read);

  if (view_at) {
    std::string error;
    const auto view = emporium::records::full_view_at(record, *view_at, &error);
    if (!view) {
      std::cerr << "emporium-verify: " << error << "\n";
      return 1;
    }
    std::cout << view->dump() << "\n";
    return 0;
  }
  const auto verdict = emporium::records::verify(record);
  (verdict.ok ? std::cout : std::cerr) << (verdict.ok ? "OK " : "FAILED ") << verdict.message << "\n";
  return verdict.ok ? 0 : 1;
}
