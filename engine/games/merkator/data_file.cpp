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
  auto read = read_data_text(text.str(), path);
  if (read.error) return read.error;
  install_catalog(read.catalog);
  if (text_out) *text_out = text.str();
  return std::nullopt;
}

ReadData read_data_text(const std::string& text, const std::string& name) {
  const auto json = Json::parse(text, nullptr, false);
  if (json.is_discarded()) return {nullptr, "Merkator data file " + name + " is not valid JSON"};
  auto parsed = parse_catalog(json);
  if (parsed.error) return {nullptr, "Merkator data file " + name + ": " + parsed.error->message};
  return {parsed.catalog, std::nullopt};
}

}  // namespace emporium::engine::merkator
