#pragma once
// Reading Merkator's data file: the only file I/O beside the engine, in its own library
// (emporium::game_files) so the pure engine stays without I/O. The server, the benchmark and the
// test tools call it.
#include <memory>
#include <optional>
#include <string>

#include "merkator/catalog.hpp"

namespace emporium::engine::merkator {

// Reads Merkator's component data (merkator-data.json) from `path`, checks it and installs it in the engine.
// Returns a message for the user when the file cannot be read or an entry is bad (the message names the
// file and the entry, e.g. "buildings[3].scoring.kind: unknown kind 'foo'"). On success `text` (when given)
// receives the file exactly as read and checked: the server serves it to the browser client as
// GET /games/merkator/data.json, so the board always shows the components the engine uses.
std::optional<std::string> load_data_file(const std::string& path, std::string* text = nullptr);

// The checking part of load_data_file, on text already read (`name` is the file's name for messages): the
// catalog, or a message for the user. Installs nothing.
struct ReadData {
  std::shared_ptr<const Catalog> catalog;
  std::optional<std::string> error;
};
ReadData read_data_text(const std::string& text, const std::string& name);

}  // namespace emporium::engine::merkator
