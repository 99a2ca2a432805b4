#pragma once
// A finished game's published record (GET /tables/<id>/record.json) and what anyone can check with it: that
// the seed is the one the table committed to before its first move, and that every recorded action is legal
// and leads to the recorded result. Pure, like the engine: no I/O.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <emporium/engine/record.hpp>

namespace emporium::records {

using Json = nlohmann::json;

inline constexpr const char* kFormat = "emporium-record/1";

// The commitment a table publishes before its first move: SHA-256 over the salt's 16 bytes followed by the
// seed's 16 bytes (both as their 32 hex digits read as bytes), in lowercase hex. Empty if the salt is not
// 32 hex digits.
std::string commitment_of(std::string_view salt_hex, const engine::Seed& seed);

// What the server publishes of a finished table.
struct Published {
  std::string table;
  engine::Record game;        // game, players, options (resolved), seed, actions
  Json seats = Json::array();  // [{"seat","name","bot"?}]
  std::string salt;           // empty for tables from before commitments
  Json result;
  long long finished_at = 0;  // unix seconds
};
Json to_json(const Published& record);

struct Verdict {
  bool ok = false;
  std::string message;  // one line: what was checked, or the first mismatch
};
// Checks a published record: its commitment, then a replay of every action, then the result.
Verdict verify(const Json& record);

// The engine's full view after the first `version` actions of a record (error: why there is none).
std::optional<Json> full_view_at(const Json& record, std::uint64_t version, std::string* error);

// Every position of a game for the replay viewer: [{"version":0,"view"}, {"version","player","action",
// "events","view"}, ...], each view and its events as the full viewer sees them. Null if it does not replay.
Json replay_steps(const engine::Record& record);

// The step `player`'s `action` would have made after the first `version` actions of a record, in the form of a
// replay step (its version, player, action, events and view): what the analysis shows of a move it prefers to
// the one played. Null if the record does not replay that far or the action is not legal there.
Json step_after(const engine::Record& record, std::uint64_t version, int player, const Json& action);

}  // namespace emporium::records
