#pragma once
// One client's connection at the tables: its name, the tables it is at, and its requests, each parsed and taken to
// the lobby, the table directory or a room. Rooms and the lobby hold members (weak_ptr) to send them frames. The
// WebSocket session (net/) owns its member, shares its lifetime with it (an aliasing shared_ptr) and implements
// its Connection. Runs on the connection's strand; send(), close(), joined() and left() may be called from any
// thread.
#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include <emporium/protocol/protocol.hpp>

#include "common/net.hpp"
#include "tables/connection.hpp"
#include "tables/friends.hpp"
#include "tables/table_directory.hpp"
#include "tables/tables_context.hpp"

namespace emporium::server {

class Room;

// What one connection may hold at the tables.
struct MemberLimits {
  std::size_t max_tables = 16;  // tables seated at or watched at once
  int max_tables_created = 32;  // per connection
};

// The account a connection signed in with (its session cookie, read at the WebSocket upgrade).
struct SignedInAs {
  std::string account;
  std::string name;
  std::string session;  // its public id: signing that session out closes the connection
};

class Member {
 public:

  // `strand`: the connection's. `address`: the client's, whose table creations are counted (AddressLimits).
  // `account`: the connection is signed in; its name is then the account's.
  Member(Connection& connection, net::any_io_executor strand, const TablesContext& context, std::string address,
         std::optional<SignedInAs> account = std::nullopt, MemberLimits limits = {});

  // The connection is open: `self` is this member as rooms will hold it. Sends the welcome.
  void start(std::shared_ptr<Member> self);
  // A text frame from the client, on the strand. False: reading pauses until the member calls
  // Connection::read_on() (a request waits for a table to be brought here, or for a table slot).
  bool receive(const std::string& frame, std::chrono::steady_clock::time_point received);
  // Whether the client has introduced itself (hello or set_name).
  bool greeted() const { return greeted_; }
  // The account the connection is signed in with, if any. Set before start(), never changed: any thread.
  const std::optional<SignedInAs>& account() const { return account_; }
  // The connection is gone: the member stops watching the lobby and leaves every table.
  void closed();

  // From any thread (rooms, the lobby).
  void send(std::shared_ptr<const std::string> frame) { connection_.send(std::move(frame)); }
  void send(std::string frame) { send(std::make_shared<const std::string>(std::move(frame))); }
  void send(std::string first, std::shared_ptr<const std::string> second) {
    connection_.send(std::move(first), std::move(second));
  }
  void close(Connection::Close why) { connection_.close(why); }
  // From any thread (a service's worker): a refusal of `re`, counted, sent after what is queued.
  void refuse_later(const nlohmann::json& re, const std::string& code, const std::string& message);
  void joined(std::shared_ptr<Room> table);  // a room took this member in (seat or spectator)
  void left(std::string table_id);           // a room let it go

  // Friends (signed in only; tables/friends.hpp). The account's relations, once read (until then, and when the store
  // could not be read, null: rooms then refuse what they would have to check). Any thread.
  std::shared_ptr<const Relations> relations() const;
  // The relations were read (null: the store did not answer). The first time, what the client sent meanwhile is read.
  void relations_read(std::shared_ptr<const Relations> relations);
  // A room seated this member at a waiting or running table, or no longer: its presence (any thread).
  void seated(const std::string& table, SeatPresence where);
  void unseated(const std::string& table);
  std::optional<SeatPresence> sitting() const;  // one of its seats, a shown one first

 private:
  void handle(protocol::Request request, std::chrono::steady_clock::time_point received);
  void refuse(const nlohmann::json& re, const std::string& code, const std::string& message);
  nlohmann::json account_json() const;  // {"id","name"}, or null for a guest
  // resume {"table"}: the seat the account claimed there, looked up in the people store.
  void resume_by_account(const std::string& table_id, const nlohmann::json& re);
  // Several nodes: a request's table may have to be taken over from another node first (TableDirectory::find).
  // Then `use` runs once it is here, and nothing more is read from the client meanwhile, so requests stay in order.
  void with_table(TableDirectory::Lookup found, std::function<void(const TableDirectory::Found&)> use);
  TableDirectory::TakenCallback later();  // what the directory calls once the table is here, posted to the strand
  // A lookup the store could not answer is refused with store_unavailable (never "no such table"): true then.
  bool refused_unavailable(const TableDirectory::Found& found, const nlohmann::json& re);
  // create_table: the directory stores the new table on the store's thread; reading pauses meanwhile.
  void create_table(protocol::CreateTable request, const nlohmann::json& re);
  bool waiting() const { return awaiting_table_ || creating_; }  // reading is paused for one of those
  bool room_for_another_table(const nlohmann::json& re);  // refuses with too_many_tables when full
  // Sends `request` (which may add `table` to this connection) holding a table slot until the room answers.
  template <class Request>
  void in_table_slot(const std::shared_ptr<Room>& table, Request&& request);
  // A request that may add a table, at the cap while earlier ones are unanswered: it waits for their answers.
  bool waits_for_a_slot(const protocol::Request& request) const;
  void slot_released();
  // What frees a reserved slot, to be run once the room that answers the request has (after its answer).
  std::function<void()> slot_releaser();
  std::shared_ptr<Room> table_for(const std::string& id, const nlohmann::json& re);

  Connection& connection_;
  net::any_io_executor strand_;
  const TablesContext& context_;
  const std::string address_;
  const MemberLimits limits_;
  protocol::Limits protocol_limits_;  // what frames are parsed with (the server's shortest clock turn)
  std::weak_ptr<Member> self_;        // start()
  std::string name_;
  const std::optional<SignedInAs> account_;
  bool greeted_ = false;
  std::map<std::string, std::shared_ptr<Room>> tables_;
  std::function<void(const TableDirectory::Found&)> awaiting_table_;  // with_table: what waits for its table
  bool creating_ = false;                                               // create_table: a table is being made
  std::size_t reserved_slots_ = 0;  // table requests accepted and not yet answered by their room
  std::size_t slots_given_up_ = 0;  // of those, answered by a joined() before the room confirmed
  // The request that waits for a slot (reading is paused meanwhile), with when it was received.
  std::optional<std::pair<protocol::Request, std::chrono::steady_clock::time_point>> deferred_;
  int tables_created_ = 0;

  // Friends: what relations_read and seated guard. Until the first read, frames wait in `unread_`.
  mutable std::mutex friends_mutex_;
  std::shared_ptr<const Relations> relations_;
  std::map<std::string, SeatPresence> seats_;
  bool reading_relations_ = false;  // the strand's: frames wait until the relations are read
  std::optional<std::pair<std::string, std::chrono::steady_clock::time_point>> unread_;
  // Refuses a request only a signed-in player can make: true then.
  bool refused_as_guest(const nlohmann::json& re);
};

using MemberPtr = std::shared_ptr<Member>;

}  // namespace emporium::server
