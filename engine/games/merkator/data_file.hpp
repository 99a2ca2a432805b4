#pragma once
// Reading Merkator's data file: the only file I/O beside the engine, in its own library
// (emporium::game_files) so the pure engine stays without I/O. The server, the benchmark and the
// test tools call it.
#include <optional>
#include <string>

namespace emporium::engine::merkator {

// Reads Merkator's component data (merkator-data.json) from `path`, checks it and installs it in the engine.
// Returns a message for the user when the file cannot be read or an entry is bad (the message names the
// file and the entry, e.g. "buildings[3].scoring.kind: unknown kind 'foo'"). On success `text` (when given)
// receives the file exactly as read and checked: the server serves it to the browser client as
// GET /games/merkator/data.json, so the board always shows the components the engine uses.
std::optional<std::string> load_data_file(const std::string& path, std::string* text = nullptr);

}  // namespace emporium::engine::merkator
