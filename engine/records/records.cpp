#include "emporium/records/records.hpp"

#include <openssl/sha.h>

namespace emporium::records {

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string hex_of(const unsigned char* bytes, std::size_t n) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back(kHex[bytes[i] >> 4]);
    out.push_back(kHex[bytes[i] & 15]);
  }
  return out;
}

std::string move_of(std::size_t index, const engine::RecordedAction& a) {
  return "move " + std::to_string(index + 1) + " (player " + std::to_string(a.player) + ", " + a.action.dump() + ")";
}

}  // namespace

std::string commitment_of(std::string_view salt_hex, const engine::Seed& seed) {
  if (salt_hex.size() != 32) return {};
  const std::string text = std::string(salt_hex) + seed.to_hex();
  unsigned char bytes[32];
  for (std::size_t i = 0; i < 32; ++i) {
    const int high = hex_digit(text[2 * i]), low = hex_digit(text[2 * i + 1]);
    if (high < 0 || low < 0) return {};
    bytes[i] = static_cast<unsigned char>(high * 16 + low);
  }
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(bytes, sizeof bytes, digest);
  return hex_of(digest, sizeof digest);
}

Json to_json(const Published& record) {
  Json j = record.game.to_json();
  j["format"] = kFormat;
  j["table"] = record.table;
  j["engine"] = engine::engine_version();
  j["seats"] = record.seats;
  j["salt"] = record.salt.empty() ? Json(nullptr) : Json(record.salt);
  j["commitment"] = record.salt.empty() ? Json(nullptr) : Json(commitment_of(record.salt, record.game.seed));
  j["result"] = record.result;
  j["finished_at"] = record.finished_at;
  return j;
}

namespace {

// verify(), throwing nlohmann::json::exception on a field of the wrong type.
Verdict check(const Json& record) {
  if (!record.is_object() || record.value("format", "") != kFormat) {
    return {false, std::string("not an Emporium game record (its format is not ") + kFormat + ")"};
  }
  const engine::Record game = engine::Record::from_json(record);  // throws on a bad shape: see verify()
  const std::string recorded_engine = record.value("engine", "");
  const std::string engine_note = recorded_engine == engine::engine_version()
                                      ? ""
                                      : " (recorded by engine " + recorded_engine + ", replayed by " +
                                            engine::engine_version() + ")";
  // 1. The seed is the one committed to before the first move.
  const Json& salt = record.contains("salt") ? record["salt"] : Json(nullptr);
  const Json& commitment = record.contains("commitment") ? record["commitment"] : Json(nullptr);
  if (!salt.is_string() || !commitment.is_string()) {
    return {false, "the record has no commitment (the table predates commitments): its shuffle cannot be checked"};
  }
  const std::string expected = commitment_of(salt.get<std::string>(), game.seed);
  if (expected.empty()) return {false, "the salt is not 32 hex digits"};
  if (expected != commitment.get<std::string>()) {
    return {false, "the commitment does not match the seed and salt: SHA-256(salt || seed) is " + expected +
                       ", the record says " + commitment.get<std::string>()};
  }
  // 2. Every action is legal, in turn.
  auto replayed = engine::replay(game);
  if (replayed.error) {
    if (!replayed.state) return {false, "the game cannot be created: " + replayed.error->message + engine_note};
    return {false, move_of(replayed.failed_at, game.actions[replayed.failed_at]) + " is refused by the rules: " +
                       replayed.error->code + ": " + replayed.error->message + engine_note};
  }
  // 3. They end the game with the recorded result.
  const auto& state = *replayed.state;
  if (!state.is_over()) {
    return {false, "the game is not over after the recorded " + std::to_string(game.actions.size()) + " moves" +
                       engine_note};
  }
  if (!record.contains("result") || state.result() != record["result"]) {
    return {false, "the result differs: the replay ends with " + state.result().dump() + ", the record says " +
                       (record.contains("result") ? record["result"].dump() : std::string("nothing")) + engine_note};
  }
  return {true, "verified: " + game.game + ", " + std::to_string(game.players) + " players, " +
                    std::to_string(game.actions.size()) + " moves replayed; the seed matches commitment " +
                    commitment.get<std::string>().substr(0, 16) + "…; the result matches" + engine_note};
}

}  // namespace

Verdict verify(const Json& record) {
  // Any field of the wrong type (a number for the engine's version, say) is a malformed record, not a crash.
  try {
    return check(record);
  } catch (const Json::exception& e) {
    return {false, std::string("malformed record: ") + e.what()};
  }
}

std::optional<Json> full_view_at(const Json& record, std::uint64_t version, std::string* error) {
  engine::Record game;
  try {
    game = engine::Record::from_json(record);
  } catch (const Json::exception& e) {
    if (error) *error = std::string("malformed record: ") + e.what();
    return std::nullopt;
  }
  if (version > game.actions.size()) {
    if (error) *error = "the record has " + std::to_string(game.actions.size()) + " moves";
    return std::nullopt;
  }
  game.actions.resize(version);
  auto replayed = engine::replay(game);
  if (replayed.error) {
    if (error) *error = replayed.error->message;
    return std::nullopt;
  }
  return replayed.state->view(engine::Viewer::full());
}

namespace {

// One replay step: `player`'s `action`, just applied to `state` with `result`, as the full viewer sees it.
Json step_json(const engine::State& state, int player, const Json& action, const engine::ApplyResult& result) {
  const auto full = engine::Viewer::full();
  return {{"version", state.version()},
          {"player", player},
          {"action", action},
          {"events", engine::events_for(result.events, full)},
          {"view", state.view(full)}};
}

}  // namespace

Json replay_steps(const engine::Record& record) {
  auto created = engine::create_game(record.game, record.players, record.options, record.seed);
  if (created.error) return nullptr;
  auto& state = *created.state;
  state.allow_undo(true);  // the undos its table allowed
  Json steps = Json::array();
  steps.push_back({{"version", 0}, {"view", state.view(engine::Viewer::full())}});
  for (const auto& a : record.actions) {
    auto result = state.apply(a.player, a.action);
    if (!result.ok()) return nullptr;
    steps.push_back(step_json(state, a.player, a.action, result));
  }
  return steps;
}

Json step_after(const engine::Record& record, std::uint64_t version, int player, const Json& action) {
  if (version > record.actions.size()) return nullptr;
  engine::Record before = record;
  before.actions.resize(version);
  auto replayed = engine::replay(before);
  if (replayed.error) return nullptr;
  auto result = replayed.state->apply(player, action);
  if (!result.ok()) return nullptr;
  return step_json(*replayed.state, player, action, result);
}

}  // namespace emporium::records
