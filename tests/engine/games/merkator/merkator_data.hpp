#pragma once
// Tests read Merkator's shipped data file (the engine itself does no I/O) and install it before any test runs.
#include <fstream>
#include <sstream>
#include <string>

#include "emporium/engine/json.hpp"
#include "merkator/catalog.hpp"

namespace emporium::engine::testing {

inline std::string merkator_data_path() { return EMPORIUM_MERKATOR_DATA; }

inline Json read_json_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return Json::parse(text.str());
}

// The shipped file, parsed once.
inline std::shared_ptr<const merkator::Catalog> shipped_merkator_catalog() {
  static const auto catalog = [] {
    auto parsed = merkator::parse_catalog(read_json_file(merkator_data_path()));
    return parsed.catalog;
  }();
  return catalog;
}

}  // namespace emporium::engine::testing
