#include "game_data.hpp"

#include <fstream>
#include <sstream>

#include "emporium/engine/json.hpp"
#include "merkator/catalog.hpp"

namespace emporium::server {

std::optional<std::string> load_merkator_data(const std::string& path, std::string* text_out) {
  std::ifstream in(path);
  if (!in) return "cannot read Merkator data file " + path + " (set --merkator-data)";
  std::stringstream text;
  text << in.rdbuf();
  const auto json = engine::Json::parse(text.str(), nullptr, false);
  if (json.is_discarded()) return "Merkator data file " + path + " is not valid JSON";
  auto parsed = engine::merkator::parse_catalog(json);
  if (parsed.error) return "Merkator data file " + path + ": " + parsed.error->message;
  engine::merkator::install_catalog(parsed.catalog);
  if (text_out) *text_out = text.str();
  return std::nullopt;
}

}  // namespace emporium::server
