#pragma once
// What the command-line tools that read a record (emporium-verify, emporium-analyse) share: the record from a
// file or standard input, with Merkator's data file loaded when the record is Merkator's (the engine itself does
// no I/O).
#include <emporium/engine/json.hpp>
#include <string>
#include <variant>

namespace emporium::records {

// The record `input` names (a path, or "--stdin"), parsed; or the line to print (without the tool's name) when it
// cannot be read, is not JSON, or needs Merkator's data and `merkator_data` does not load.
std::variant<nlohmann::json, std::string> read_record_input(const std::string& input, const std::string& merkator_data);

}  // namespace emporium::records
