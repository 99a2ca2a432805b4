#pragma once
// What every room, the table directory, the lobby and each member need of the server. main() fills it in; it
// outlives them all.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace emporium::server {

class AddressLimits;
class Cluster;
class CommitQueue;
class Friends;
class Lobby;
class Metrics;
class PeopleStore;
class Store;
class StoreHealth;
class TableNotices;
class TableDirectory;
class WorkerPool;

struct TablesContext {
  TableDirectory* directory = nullptr;  // every table this node serves, by id, invite code and seat token
  Lobby* lobby = nullptr;               // the public listing, for those who watch it
  Metrics* metrics = nullptr;
  Store* store = nullptr;          // used only on `store_jobs` and the commit queue: never on a network thread
  PeopleStore* people = nullptr;   // accounts' seat claims, on `store_jobs` too; null: no accounts
  Friends* friends = nullptr;      // friends, blocks, presence, invitations; null: no accounts
  TableNotices* notices = nullptr;  // turns waiting on people away, games' ends (e-mail); null: nobody is told
  StoreHealth* health = nullptr;   // whether the store answers: while it does not, writes are refused at once
  WorkerPool* store_jobs = nullptr;  // where rooms and the directory call the store, in order (one thread)
  CommitQueue* commits = nullptr;  // where rooms write their moves (group commit)
  WorkerPool* bots = nullptr;      // where computer players think
  Cluster* cluster = nullptr;      // several nodes on one PostgreSQL (cluster/cluster.hpp); null on one node
  AddressLimits* addresses = nullptr;  // tables created per client address
  // Told of a rated table's end once it is stored, from the room's strand (it must not block): its analysis is
  // computed when the node is idle (analyses/analyses.hpp). Empty: nobody is told.
  std::function<void(const std::string& table)> rated_game_ended;
  std::chrono::milliseconds bot_delay{800};  // the pause before a bot's move, after the previous move
  std::chrono::seconds absent_after{300};    // replace_absent: how long a player must have been disconnected
  std::chrono::seconds abandoned_after{600};  // a waiting table with nobody connected closes after this
  // A casual game of one person against bots, the person away this long: the bots play it to its end (0: never).
  std::chrono::seconds forsaken_after{3 * 24 * 3600};
  // A finished table nobody is connected to leaves memory after this (0: never).
  std::chrono::seconds finished_unwatched_after{60};
  // When the previous run of the server was last alive (Unix ms), if it ever ran: turn clocks resume from it.
  std::optional<std::int64_t> last_alive_ms;
  int min_turn_s = 5;  // the shortest turn a clock may have
  // A clock of at least this much per move is a correspondence clock (docs/mail.md): low-clock mails.
  std::chrono::seconds correspondence_turn{86400};
};

}  // namespace emporium::server
