#include "records/game_records.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>

#include <emporium/records/records.hpp>

#include "common/secrets.hpp"
#include "common/url.hpp"
#include "store/store.hpp"
#include "common/worker_pool.hpp"

namespace emporium::server {

namespace {

constexpr std::string_view kJson = "application/json; charset=utf-8";

}  // namespace

bool valid_table_id(std::string_view id) {
  return !id.empty() && id.size() <= 128 && std::all_of(id.begin(), id.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
  });
}

bool invite_allows(bool is_private, const std::string& invite, const std::string& given) {
  return !is_private || (!given.empty() && same_hash(given, invite));
}

records::Published published_record(const StoredTable& stored) {
  records::Published published;
  published.table = stored.id;
  published.game = {stored.game, stored.players, stored.options, stored.seed, {}};
  for (const auto& [player, action] : stored.actions) published.game.actions.push_back({player, action});
  for (const auto& s : stored.seats) {
    nlohmann::json seat{{"seat", s.seat}, {"name", s.name}};
    if (!s.bot.empty()) seat["bot"] = s.bot;
    published.seats.push_back(std::move(seat));
  }
  published.salt = stored.salt;
  published.result = stored.result;
  published.finished_at = stored.finished_at;
  return published;
}

GameRecords::GameRecords(server::Store& store, WorkerPool& workers, std::size_t cache_bytes)
    : store_(store), workers_(workers), kept_(cache_bytes) {}

std::optional<TableFileRequest> parse_table_file(std::string_view target) {
  constexpr std::string_view prefix = "/tables/";
  const auto question = target.find('?');
  std::string_view path = target.substr(0, question);
  const std::string_view query = question == std::string_view::npos ? "" : target.substr(question + 1);
  if (!path.starts_with(prefix)) return std::nullopt;
  path.remove_prefix(prefix.size());
  const auto slash = path.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  return TableFileRequest{std::string(path.substr(0, slash)), std::string(path.substr(slash + 1)),
                          query_value(query, "invite").value_or("")};
}

std::optional<GameRecords::Request> GameRecords::parse(std::string_view target) {
  auto request = parse_table_file(target);
  if (!request || (request->file != "record.json" && request->file != "replay.json")) return std::nullopt;
  return Request{std::move(request->table), request->file == "record.json" ? Kind::record : Kind::replay,
                 std::move(request->invite)};
}

void GameRecords::serve(Request r, std::function<void(Answer)> done) {
  workers_.post([this, r = std::move(r), done = std::move(done)] {
    Answer a;
    try {
      a = build(r);
    } catch (const StoreError& e) {
      if (!e.unavailable()) spdlog::error("table {}: building its record: {}", r.table, e.what());
      a = {nullptr, e.unavailable() ? 503u : 500u, "The record could not be read now; try again in a few seconds.\n"};
    } catch (const std::exception& e) {
      spdlog::error("table {}: building its {}: {}", r.table, r.what == Kind::record ? "record" : "replay", e.what());
      a = {nullptr, 500, "The record could not be read; try again.\n"};
    }
    done(std::move(a));
  });
}

GameRecords::Answer GameRecords::build(const Request& r) {
  // Checked on every request, cached or not: a private table's record needs its invite.
  auto allowed = [&](bool is_private, const std::string& invite) { return invite_allows(is_private, invite, r.invite); };
  static const std::string kPrivate =
      "This table is private: its record and replay need its invite code (?invite=...).\n";
  const std::string key = r.table + (r.what == Kind::record ? "/record" : "/replay");
  if (auto hit = kept_.find(key)) {
    if (!allowed(hit->is_private, hit->invite)) return {nullptr, 403, kPrivate};
    return {hit->file, 200, {}};
  }
  if (!valid_table_id(r.table)) return {nullptr, 404, "No table has this id.\n"};
  auto described = store_.load(r.table, /*with_actions=*/false);
  if (!described) return {nullptr, 404, "No table has this id.\n"};
  if (!allowed(described->is_private, described->invite)) return {nullptr, 403, kPrivate};
  if (described->state != TableState::finished) {
    return {nullptr, 409, "The game has not ended: its record and replay are published when it is over.\n"};
  }
  auto stored = store_.load(r.table);
  if (!stored) return {nullptr, 404, "No table has this id.\n"};

  const records::Published published = published_record(*stored);
  nlohmann::json body = records::to_json(published);
  if (r.what == Kind::replay) {
    auto steps = records::replay_steps(published.game);
    if (steps.is_null()) return {nullptr, 500, "This game's record does not replay.\n"};
    body = {{"table", published.table},   {"game", published.game.game}, {"players", published.game.players},
            {"options", published.game.options}, {"seats", published.seats}, {"result", published.result},
            {"steps", std::move(steps)}};
  }
  auto file = std::make_shared<const WebFiles::File>(WebFiles::make(body.dump(), kJson));
  kept_.keep(key, {file, stored->is_private, stored->invite});
  return {file, 200, {}};
}

}  // namespace emporium::server
