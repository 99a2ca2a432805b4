#include "emporium/records/record_input.hpp"

#include <fstream>
#include <iostream>
#include <iterator>
#include <merkator/data_file.hpp>

namespace emporium::records {

std::variant<nlohmann::json, std::string> read_record_input(const std::string& input,
                                                            const std::string& merkator_data) {
  std::string text;
  if (input == "--stdin") {
    text.assign(std::istreambuf_iterator<char>(std::cin), {});
  } else {
    std::ifstream file(input, std::ios::binary);
    if (!file) return "cannot read " + input;
    text.assign(std::istreambuf_iterator<char>(file), {});
  }
  auto record = nlohmann::json::parse(text, nullptr, false);
  if (record.is_discarded()) return std::string("the input is not JSON");
  // Merkator's components come from its data file; other games need none.
  if (record.is_object() && record.value("game", "") == "merkator") {
    if (auto error = engine::merkator::load_data_file(merkator_data)) {
      return *error + " (pass --merkator-data FILE; the server serves it at /games/merkator/data.json)";
    }
  }
  return record;
}

}  // namespace emporium::records
