#pragma once
#include <optional>
#include <string>

namespace emporium::server {

// Reads Merkator's component data (merkator-data.json) from `path`, checks it and installs it in the engine.
// Returns a message for the user when the file cannot be read or an entry is bad (the message names the
// file and the entry, e.g. "buildings[3].scoring.kind: unknown kind 'foo'"); the server refuses to start then.
// On success `text` (when given) receives the file exactly as read and checked: the server serves it to the
// browser client as GET /games/merkator/data.json, so the board always shows the components the engine uses.
std::optional<std::string> load_merkator_data(const std::string& path, std::string* text = nullptr);

}  // namespace emporium::server
