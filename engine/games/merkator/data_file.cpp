#include "merkator/data_file.hpp"

#include <fstream>
#include <sstream>

#include "emporium/engine/json.hpp"
#include "merkator/catalog.hpp"

namespace emporium::engine::merkator {

std::optional<std::string> load_data_file(const std::string& path, std::string* text_out) {
  std::ifstream in(path);
  if (!in) return "cannot read Merkator data file " + path + " (set --merkator-data)";
  std::stringstream text;
  text << in.rdbuf();
  const auto json = Json::parse(text.str(), nullptr, false);
  if (json.is_discarded()) return "Merkator data file " + path + " is not valid JSON";
  auto parsed = parse_catalog(json);
  if (parsed.error) return "Merkator data file " + path + ": " + parsed.error->message;
  install_catalog(parsed.catalog);
  if (text_out) *text_out = text.str();
  return std::nullopt;
}

}  // namespace emporium::engine::merkator
