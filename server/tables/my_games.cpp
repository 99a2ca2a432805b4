#include "tables/my_games.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <mutex>

#include "common/secrets.hpp"
#include "common/worker_pool.hpp"
#include "store/people_store.hpp"
#include "tables/member.hpp"
#include "tables/room.hpp"
#include "tables/table_directory.hpp"

namespace emporium::server {

std::optional<protocol::MyGame> describe_seat(const StoredTable& table, const std::string& token_hash,
                                              const std::vector<int>& to_move,
                                              std::optional<protocol::MyGame::Clock> clock) {
  const auto held = std::find_if(table.seats.begin(), table.seats.end(), [&](const StoredSeat& s) {
    return same_hash(s.token_hash, token_hash) && s.resumable();
  });
  if (held == table.seats.end()) return std::nullopt;
  protocol::MyGame g;
  g.token = token_hash;
  g.table = table.id;
  g.game = table.game;
  g.state = name_of(table.state);
  g.seat = held->seat;
  for (int i = 0; i < table.players; ++i) {
    protocol::SeatInfo seat;
    seat.seat = i;
    g.seats.push_back(seat);
  }
  for (const auto& s : table.seats) {
    g.seats[s.seat].name = s.name;
    if (!s.bot.empty()) g.seats[s.seat].bot = s.bot;
  }
  g.your_turn = std::find(to_move.begin(), to_move.end(), held->seat) != to_move.end();
  g.to_move = to_move;
  g.clock = clock;
  g.result = table.result;
  g.updated = table.updated_at;
  if (table.is_private) g.invite = table.invite;
  g.rated = table.rated;
  return g;
}

namespace {
// One my_games request: the answers in the tokens' order, sent once the last is in (rooms answer on their strands).
// An empty token stands for a seat of the account's that the request did not name: sent without a token, and left
// out if it holds nothing now.
class MyGamesReply {
 public:
  MyGamesReply(std::shared_ptr<Member> member, std::vector<std::string> tokens, nlohmann::json re)
      : member_(std::move(member)), tokens_(std::move(tokens)), re_(std::move(re)), games_(tokens_.size()),
        pending_(tokens_.size()) {
    if (pending_ == 0) send();
  }

  void answer(std::size_t i, std::optional<protocol::MyGame> game) {
    {
      std::lock_guard lock(mutex_);
      games_[i] = std::move(game);
      if (--pending_ != 0) return;
    }
    send();
  }
  // The store could not say what the tokens it was asked about are: the whole request is refused, for an answer
  // would call them unknown (and the client would forget them).
  void unavailable() {
    {
      std::lock_guard lock(mutex_);
      unavailable_ = true;
    }
    answer_all_left();
  }

 private:
  void answer_all_left() {
    {
      std::lock_guard lock(mutex_);
      if (pending_ == 0) return;
      pending_ = 0;
    }
    send();
  }
  void send() {
    if (unavailable_) {
      return member_->send(
          protocol::render_error(re_, protocol::errc::store_unavailable, protocol::kStoreUnavailableMessage));
    }
    std::vector<protocol::MyGame> games;
    std::vector<std::string> unknown;
    for (std::size_t i = 0; i < tokens_.size(); ++i) {
      if (games_[i]) {
        games_[i]->token = tokens_[i];  // the rooms and the store know only its hash
        games.push_back(std::move(*games_[i]));
      } else if (!tokens_[i].empty()) {
        unknown.push_back(tokens_[i]);
      }
    }
    member_->send(protocol::render_my_games(re_, games, unknown));
  }

  std::shared_ptr<Member> member_;
  const std::vector<std::string> tokens_;
  const nlohmann::json re_;
  std::mutex mutex_;
  std::vector<std::optional<protocol::MyGame>> games_;
  std::size_t pending_;
  bool unavailable_ = false;
};
}  // namespace

void TableDirectory::my_games(const std::shared_ptr<Member>& member, std::vector<std::string> tokens,
                              nlohmann::json re) {
  std::vector<std::string> hashes;
  for (const auto& token : tokens) hashes.push_back(hash_token(token));
  const auto& account = member->account();
  if (!account || !context_.people) return describe_seats(member, std::move(tokens), std::move(hashes), {}, std::move(re));
  // A signed-in member's: also the seats its account claimed (on any device), newest first, read in one query with
  // their tables as stored, so that no table is loaded on the store's thread for them.
  context_.store_jobs->post([this, member, tokens = std::move(tokens), hashes = std::move(hashes), re = std::move(re),
                             account = account->account]() mutable {
    std::vector<std::optional<StoredTable>> stored(hashes.size());
    try {
      // Those asked by token are left out below: enough more that kMyGamesOfAccount others remain.
      auto claims = context_.people->claimed_tables(account, kMyGamesOfAccount + hashes.size());
      std::size_t added = 0;
      for (auto& claim : claims) {
        if (added == kMyGamesOfAccount) break;
        if (std::find(hashes.begin(), hashes.end(), claim.token_hash) != hashes.end()) continue;
        tokens.emplace_back();
        hashes.push_back(std::move(claim.token_hash));
        stored.emplace_back(std::move(claim.table));
        ++added;
      }
    } catch (const StoreError& e) {
      if (!e.unavailable()) spdlog::error("reading an account's seats: {}", e.what());
      return member->send(
          protocol::render_error(re, protocol::errc::store_unavailable, protocol::kStoreUnavailableMessage));
    }
    describe_seats(member, std::move(tokens), std::move(hashes), std::move(stored), std::move(re));
  });
}

void TableDirectory::describe_seats(const std::shared_ptr<Member>& member, std::vector<std::string> tokens,
                                    std::vector<std::string> hashes, std::vector<std::optional<StoredTable>> stored,
                                    nlohmann::json re) {
  stored.resize(hashes.size());
  auto reply = std::make_shared<MyGamesReply>(member, std::move(tokens), std::move(re));
  std::vector<std::shared_ptr<Room>> holders(hashes.size());
  {
    std::lock_guard lock(mutex_);
    for (std::size_t i = 0; i < hashes.size(); ++i) {
      if (auto it = by_token_.find(hashes[i]); it != by_token_.end()) holders[i] = it->second.lock();
    }
  }
  std::vector<std::size_t> from_store;
  for (std::size_t i = 0; i < hashes.size(); ++i) {
    if (holders[i]) {
      holders[i]->describe(hashes[i], [reply, i](std::optional<protocol::MyGame> game) { reply->answer(i, std::move(game)); });
    } else if (stored[i]) {
      reply->answer(i, describe_not_in_memory(stored[i], hashes[i]));  // read with the account's claims
    } else {
      from_store.push_back(i);
    }
  }
  if (from_store.empty()) return;
  context_.store_jobs->post([this, reply, hashes = std::move(hashes), from_store = std::move(from_store)] {
    try {
      for (const auto i : from_store) reply->answer(i, describe_stored(hashes[i]));
    } catch (const StoreError& e) {
      if (!e.unavailable()) spdlog::error("describing a seat from the store: {}", e.what());
      reply->unavailable();
    }
  });
}

std::optional<protocol::MyGame> TableDirectory::describe_stored(const std::string& token_hash) {
  const auto id = context_.store->table_of_token(token_hash);
  return describe_not_in_memory(id ? context_.store->load(*id, false) : std::nullopt, token_hash);
}

std::optional<protocol::MyGame> TableDirectory::describe_not_in_memory(const std::optional<StoredTable>& table,
                                                                       const std::string& token_hash) const {
  // On one node unfinished tables are all in memory: one that is not failed to restore and is not described
  // either. With several, it may be another node's: it is described from the store.
  if (!table || (table->state != TableState::finished && !context_.cluster)) return std::nullopt;
  return describe_seat(*table, token_hash, {});
}

}  // namespace emporium::server
