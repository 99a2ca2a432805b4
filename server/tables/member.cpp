#include "tables/member.hpp"

#include <emporium/engine/registry.hpp>

#include "cluster/cluster.hpp"
#include "common/address_limits.hpp"
#include "common/metrics.hpp"
#include "common/secrets.hpp"
#include "tables/friends.hpp"
#include "tables/lobby.hpp"
#include "tables/room.hpp"

namespace emporium::server {

namespace perr = protocol::errc;
using Json = nlohmann::json;

namespace {
template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

std::string guest_name() { return "Guest-" + random_token(3); }
}  // namespace

Member::Member(Connection& connection, net::any_io_executor strand, const TablesContext& context, std::string address,
               std::optional<SignedInAs> account, MemberLimits limits)
    : connection_(connection),
      strand_(std::move(strand)),
      context_(context),
      address_(std::move(address)),
      limits_(limits),
      name_(account ? account->name : guest_name()),
      account_(std::move(account)) {
  protocol_limits_.min_turn_s = context_.min_turn_s;
}

void Member::start(std::shared_ptr<Member> self) {
  self_ = self;
  Json games = Json::array();
  for (const auto& g : engine::all_games()) games.push_back(g.to_json());
  connection_.reply(protocol::render_welcome(games, static_cast<long long>(context_.absent_after.count()),
                                             context_.cluster ? context_.cluster->node() : std::string(),
                                             static_cast<long long>(context_.forsaken_after.count())));
  if (account_ && context_.friends) {
    reading_relations_ = true;  // a seat or a chat line must not pass before the blocks are known
    context_.friends->arrived(self);
  }
}

std::shared_ptr<const Relations> Member::relations() const {
  std::lock_guard hold(friends_mutex_);
  return relations_;
}

void Member::relations_read(std::shared_ptr<const Relations> relations) {
  {
    std::lock_guard hold(friends_mutex_);
    relations_ = std::move(relations);
  }
  net::post(strand_, [self = self_.lock()] {
    if (!self || !self->reading_relations_) return;
    self->reading_relations_ = false;
    if (!self->unread_ || self->connection_.closing()) return;
    auto [frame, received] = std::move(*self->unread_);
    self->unread_.reset();
    if (self->receive(frame, received)) self->connection_.read_on();
  });
}

void Member::seated(const std::string& table, SeatPresence where) {
  {
    std::lock_guard hold(friends_mutex_);
    seats_[table] = std::move(where);
  }
  if (account_ && context_.friends) context_.friends->seats_changed(account_->account);
}

void Member::unseated(const std::string& table) {
  {
    std::lock_guard hold(friends_mutex_);
    if (seats_.erase(table) == 0) return;
  }
  if (account_ && context_.friends) context_.friends->seats_changed(account_->account);
}

std::optional<SeatPresence> Member::sitting() const {
  std::lock_guard hold(friends_mutex_);
  std::optional<SeatPresence> found;
  for (const auto& [id, where] : seats_) {
    if (!found || (where.shown && !found->shown)) found = where;
  }
  return found;
}

bool Member::refused_as_guest(const Json& re) {
  if (account_ && context_.friends) return false;
  refuse(re, perr::not_signed_in, "sign in first: friends, blocks, invitations and reports are for signed-in players");
  return true;
}

bool Member::receive(const std::string& frame, std::chrono::steady_clock::time_point received) {
  if (reading_relations_) {  // relations_read() reads it
    unread_.emplace(frame, received);
    return false;
  }
  auto parsed = protocol::parse_client_message(frame, protocol_limits_);
  if (auto* error = std::get_if<protocol::ParseError>(&parsed)) {
    refuse(error->id, error->code, error->message);
    return true;
  }
  auto request = std::get<protocol::Request>(std::move(parsed));
  if (waits_for_a_slot(request)) {
    // At the cap while rooms have still to answer: whether one frees a slot is not known yet. Requests are
    // handled in order, so nothing more is read until they have (slot_released).
    deferred_.emplace(std::move(request), received);
    return false;
  }
  handle(std::move(request), received);
  return !waiting();  // while a table is being brought or made, what it waits for reads on
}

void Member::closed() {
  if (account_ && context_.friends) context_.friends->gone(this, account_->account);
  context_.lobby->forget(this);
  for (auto& [id, table] : tables_) table->disconnected(this);
  tables_.clear();
}

TableDirectory::TakenCallback Member::later() {
  return [self = self_.lock()](TableDirectory::Found found) {
    net::post(self->strand_, [self, found = std::move(found)] {
      auto use = std::move(self->awaiting_table_);
      self->awaiting_table_ = nullptr;
      if (self->connection_.closing() || !use) return;
      use(found);
      self->connection_.read_on();
    });
  };
}

void Member::with_table(TableDirectory::Lookup found, std::function<void(const TableDirectory::Found&)> use) {
  if (!found.pending) return use({found.table});
  awaiting_table_ = std::move(use);  // later() runs it, then reading goes on
}

bool Member::refused_unavailable(const TableDirectory::Found& found, const Json& re) {
  if (!found.unavailable) return false;
  refuse(re, perr::store_unavailable, protocol::kStoreUnavailableMessage);
  return true;
}

void Member::create_table(protocol::CreateTable request, const Json& re) {
  creating_ = true;  // reading pauses until the table is made (on the store's thread)
  context_.directory->create_table(request, account_ ? account_->account : std::string(),
                                   [self = self_.lock(), re](TableDirectory::Created created) {
    net::post(self->strand_, [self, re, created = std::move(created)] {
      self->creating_ = false;
      if (self->connection_.closing()) return;
      if (created.error) {
        self->refuse(re, created.error->code, created.error->message);
      } else {
        ++self->tables_created_;
        self->in_table_slot(created.table, [&] { created.table->join(self, self->name_, std::nullopt, re); });
      }
      self->connection_.read_on();
    });
  });
}

bool Member::waits_for_a_slot(const protocol::Request& request) const {
  const bool adds_table = std::visit(
      Overloaded{[](const protocol::CreateTable&) { return true; }, [](const protocol::Join&) { return true; },
                 [](const protocol::Watch&) { return true; }, [](const protocol::Resume&) { return true; },
                 [](const protocol::Rematch&) { return true; }, [](const auto&) { return false; }},
      request.message);
  return adds_table && reserved_slots_ > 0 && tables_.size() + reserved_slots_ >= limits_.max_tables;
}

void Member::slot_released() {
  if (slots_given_up_ > 0) {
    --slots_given_up_;  // joined() gave this request's slot up already
  } else {
    --reserved_slots_;
  }
  if (!deferred_ || waits_for_a_slot(deferred_->first)) return;
  auto [request, received] = std::move(*deferred_);
  deferred_.reset();
  if (connection_.closing()) return;
  handle(std::move(request), received);
  if (!waiting()) connection_.read_on();
}

void Member::refuse_later(const Json& re, const std::string& code, const std::string& message) {
  context_.metrics->message_refused(code);
  send(protocol::render_error(re, code, message));
}

void Member::refuse(const Json& re, const std::string& code, const std::string& message) {
  context_.metrics->message_refused(code);
  connection_.reply(protocol::render_error(re, code, message));
}

bool Member::room_for_another_table(const Json& re) {
  if (tables_.size() + reserved_slots_ < limits_.max_tables) return true;
  refuse(re, perr::too_many_tables, "this connection has too many tables open");
  return false;
}

// A request that may add a table holds a slot from the moment it is accepted until its room has answered: the
// room's joined() is posted back later, so counting only joined tables let back-to-back requests pass the cap.
template <class Request>
void Member::in_table_slot(const std::shared_ptr<Room>& table, Request&& request) {
  ++reserved_slots_;
  request();
  table->after_requests(slot_releaser());
}

// Run after the room's answer, so a joined() it posted lands before the slot is freed.
std::function<void()> Member::slot_releaser() {
  return [self = self_.lock()] { net::post(self->strand_, [self] { self->slot_released(); }); };
}

std::shared_ptr<Room> Member::table_for(const std::string& id, const Json& re) {
  auto it = tables_.find(id);
  if (it == tables_.end()) {
    refuse(re, perr::no_such_table, "you are not at table '" + id + "': join or watch it first");
    return nullptr;
  }
  return it->second;
}

void Member::resume_by_account(const std::string& table_id, const Json& re) {
  if (!account_ || !context_.people) {
    return refuse(re, perr::not_signed_in, "sign in to take a seat back without its token");
  }
  auto self = self_.lock();
  // The seat's hash comes with the table, from the store's thread, and is read after it on this strand.
  auto token_hash = std::make_shared<std::string>();
  auto found_seat = [token_hash, later = later()](TableDirectory::Found found, std::string hash) {
    *token_hash = std::move(hash);
    later(std::move(found));
  };
  with_table(context_.directory->find_by_account(account_->account, table_id, std::move(found_seat)),
             [self, re, token_hash](const TableDirectory::Found& found) {
               if (self->refused_unavailable(found, re)) return;
               const auto& table = found.table;
               if (!table) return self->refuse(re, perr::not_seated, "your account has no seat at that table");
               self->in_table_slot(table, [&] { table->resume(self, *token_hash, "", re); });
             });
}

Json Member::account_json() const {
  return account_ ? Json{{"id", account_->account}, {"name", account_->name}} : Json(nullptr);
}

void Member::handle(protocol::Request request, std::chrono::steady_clock::time_point received) {
  const Json& re = request.id;
  auto self = self_.lock();
  std::visit(
      Overloaded{
          [&](protocol::Hello& m) {
            greeted_ = true;
            if (m.name && !account_) name_ = *m.name;  // signed in: the account's name, whatever the page kept
            connection_.reply(protocol::render_hello(re, name_, account_json()));
          },
          [&](protocol::SetName& m) {  // answered like hello, and counts as one
            greeted_ = true;
            if (account_) {
              return refuse(re, perr::signed_in,
                            "you are signed in as " + account_->name + ": you play under your account's name");
            }
            name_ = m.name;
            connection_.reply(protocol::render_hello(re, name_, account_json()));
          },
          [&](protocol::WatchLobby& m) {
            // Queued here, before any change the lobby sends from now on.
            connection_.reply(protocol::render_lobby(re, context_.lobby->watch(self, m.on)));
          },
          [&](protocol::CreateTable& m) {
            if (m.friends_only && !account_) {
              return refuse(re, perr::not_signed_in, "sign in to create a table for your friends");
            }
            if (m.rated.value_or(false) && !account_) {
              return refuse(re, perr::rated_needs_account, "sign in to create a rated table (guests play casual tables)");
            }
            if (tables_created_ >= limits_.max_tables_created) {
              return refuse(re, perr::too_many_tables, "this connection has created too many tables");
            }
            // Per address too: reconnecting must not reset the count.
            if (!context_.addresses->allow_table(account_ ? AddressLimits::account_key(account_->account) : address_,
                                                 received)) {
              return refuse(re, perr::too_many_tables,
                            "too many tables created from your address in the last minute; wait a little");
            }
            if (!room_for_another_table(re)) return;
            m.rated = m.rated.value_or(account_.has_value());  // by default rated when signed in
            create_table(std::move(m), re);
          },
          [&](protocol::Join& m) {
            if (!room_for_another_table(re)) return;
            const bool by_invite = m.ref.invite.has_value();
            with_table(context_.directory->find(m.ref, later()), [self, seat = m.seat, re, by_invite](const TableDirectory::Found& found) {
              if (self->refused_unavailable(found, re)) return;
              const auto& table = found.table;
              if (!table) return self->refuse(re, perr::no_such_table, "no such table (private tables need their invite code)");
              self->in_table_slot(table, [&] { table->join(self, self->name_, seat, re, by_invite); });
            });
          },
          [&](protocol::Watch& m) {
            if (!room_for_another_table(re)) return;
            const bool by_invite = m.ref.invite.has_value();
            with_table(context_.directory->find(m.ref, later()), [self, re, by_invite](const TableDirectory::Found& found) {
              if (self->refused_unavailable(found, re)) return;
              const auto& table = found.table;
              if (!table) return self->refuse(re, perr::no_such_table, "no such table (private tables need their invite code)");
              self->in_table_slot(table, [&] { table->watch(self, re, by_invite); });
            });
          },
          [&](protocol::Resume& m) {
            if (!room_for_another_table(re)) return;
            if (!m.table.empty()) return resume_by_account(m.table, re);
            with_table(context_.directory->find_by_token(m.token, later()), [self, token = m.token, re](const TableDirectory::Found& found) {
              if (self->refused_unavailable(found, re)) return;
              const auto& table = found.table;
              if (!table) return self->refuse(re, perr::bad_token, "that seat token is not valid");
              self->in_table_slot(table, [&] { table->resume(self, hash_token(token), token, re); });
            });
          },
          [&](protocol::Leave& m) {
            if (auto table = table_for(m.table, re)) table->leave(self, re);
          },
          [&](protocol::Start& m) {
            if (auto table = table_for(m.table, re)) table->start(self, re);
          },
          [&](protocol::AddBot& m) {
            if (auto table = table_for(m.table, re)) table->add_bot(self, m.seat, std::move(m.level), re);
          },
          [&](protocol::RemoveBot& m) {
            if (auto table = table_for(m.table, re)) table->remove_bot(self, m.seat, re);
          },
          [&](protocol::ReplaceAbsent& m) {
            if (auto table = table_for(m.table, re)) table->replace_absent(self, m.seat, re);
          },
          [&](protocol::Act& m) {
            if (auto table = table_for(m.table, re)) table->act(self, m.version, std::move(m.action), re, received);
          },
          [&](protocol::Preview& m) {
            if (auto table = table_for(m.table, re)) table->preview(self, std::move(m), re);
          },
          [&](protocol::SnapshotRequest& m) {
            if (auto table = table_for(m.table, re)) table->snapshot(self, re);
          },
          [&](protocol::Chat& m) {
            if (auto table = table_for(m.table, re)) table->chat(self, name_, std::move(m.text), re);
          },
          [&](protocol::Ping&) { connection_.reply(protocol::render_pong(re)); },
          [&](protocol::Rematch& m) {
            if (!room_for_another_table(re)) return;  // the caller takes a seat at the rematch
            if (auto table = table_for(m.table, re)) {
              ++reserved_slots_;
              table->rematch(self, re, slot_releaser());  // answered by the rematch, perhaps once brought here
            }
          },
          // Non-binding: the connection joins, resumes and watches nothing.
          [&](protocol::MyGames& m) { context_.directory->my_games(self, std::move(m.tokens), re); },
          [&](protocol::Friends&) {
            if (!refused_as_guest(re)) context_.friends->list(self, re);
          },
          [&](protocol::Relate& m) {
            if (!refused_as_guest(re)) context_.friends->relate(self, std::move(m), re);
          },
          [&](protocol::Invite& m) {
            if (refused_as_guest(re)) return;
            if (auto table = table_for(m.table, re)) table->invite(self, std::move(m.name), re);
          },
          [&](protocol::DeclineInvitation& m) {
            if (!refused_as_guest(re)) context_.friends->decline(self, std::move(m.table), re);
          },
          [&](protocol::Mute& m) {
            if (auto table = table_for(m.table, re)) table->mute(self, std::move(m.name), m.on, re);
          },
          [&](protocol::ChatSettings& m) {
            if (auto table = table_for(m.table, re)) table->chat_settings(self, std::move(m), re);
          },
          [&](protocol::Report& m) {
            if (refused_as_guest(re)) return;
            if (auto table = table_for(m.table, re)) table->report(self, std::move(m), re);
          },
      },
      request.message);
}

void Member::joined(std::shared_ptr<Room> table) {
  net::post(strand_, [self = self_.lock(), table = std::move(table)] {
    // The table now counts itself: the slot its request held is given up here rather than when the room's
    // answer is confirmed, so a client that sends its next request on the reply is not counted twice.
    if (self->tables_.insert_or_assign(table->id(), table).second && self->reserved_slots_ > 0) {
      --self->reserved_slots_;
      ++self->slots_given_up_;
    }
  });
}

void Member::left(std::string table_id) {
  unseated(table_id);
  net::post(strand_, [self = self_.lock(), table_id = std::move(table_id)] { self->tables_.erase(table_id); });
}

}  // namespace emporium::server
