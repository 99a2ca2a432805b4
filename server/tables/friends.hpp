#pragma once
// Friends (docs/friends.md): friend requests, blocks, presence and invitations to tables, for signed-in connections.
// Relations are kept in the people store and read on a worker of their own (one thread, so that each account's
// changes are applied in order), never on a network thread. Each signed-in member holds its account's relations
// (Member::relations) for the rooms to check a seat or a chat line against. What another person must hear — a
// request, an acceptance, a friend's presence, an invitation — goes to their connections on this node, and with
// several nodes to the others through the cluster's notifications (TableHost::remote_people).
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <emporium/protocol/protocol.hpp>
#include <nlohmann/json.hpp>

#include "common/throttle.hpp"
#include "common/worker_pool.hpp"
#include "store/people_store.hpp"

namespace emporium::server {

class Cluster;
class TableNotices;
class Member;

// One account's relations, as its connections hold them.
struct Relations {
  std::set<std::string> friends;     // account ids
  std::set<std::string> blocked;     // those it blocked
  std::set<std::string> blocked_by;  // those who blocked it (never shown to it)
  long long chat_muted_until = 0;    // a moderator's mute (Unix seconds; docs/friends.md "Moderation")
};

// Where a member sits, for its presence: a waiting or running table.
struct SeatPresence {
  std::string table, game;
  bool shown = false;  // friends may be told which table (a public one, or a friends-only table it created)
};

// What an invitation needs of its table, read on the table's strand.
struct InvitingTable {
  std::string id, game, invite;  // invite: empty when the table has none
  int players = 0;
  std::vector<std::string> seated;  // the accounts seated there
};

class Friends {
 public:
  struct Settings {
    std::string node = "main";  // this node's name, as its sign of life has it (presence rows are per node)
    std::size_t requests_per_hour = 60;       // friend requests and blocks an account may send
    std::size_t invitations_per_10_min = 30;  // invitations an account may send
    std::size_t reports_per_hour = 10;        // reports an account may make
  };
  Friends(PeopleStore& people, Settings settings);
  ~Friends();
  // Several nodes: what others must hear goes through the cluster too. Set before serving.
  void set_cluster(Cluster* cluster) { cluster_ = cluster; }
  // Invitations to people not connected here are also told to the notices (e-mail). Set before serving.
  void set_notices(TableNotices* notices) { notices_ = notices; }
  // This node's presence rows from an earlier run are gone (a restart, a crash): before serving.
  void start();

  // A signed-in member's connection opened: its relations are read (then Member::relations_read) and its account is
  // online. And closed.
  void arrived(const std::shared_ptr<Member>& member);
  void gone(const Member* member, const std::string& account);
  // A member's seats changed (Member::seated, unseated): its account's presence is worked out again.
  void seats_changed(const std::string& account);
  // A room needed an account's relations that could not be read (the store did not answer): read them again.
  void reread(const std::string& account);

  // Requests, from the member's strand; each is answered on the member.
  void list(std::shared_ptr<Member> member, nlohmann::json re);
  void relate(std::shared_ptr<Member> member, protocol::Relate request, nlohmann::json re);
  void invite(std::shared_ptr<Member> member, InvitingTable table, std::string name, nlohmann::json re);
  void decline(std::shared_ptr<Member> member, std::string table, nlohmann::json re);
  // A report a room made, with its context (no id yet): stored, then answered `reported`.
  void report(std::shared_ptr<Member> member, ReportRow report, nlohmann::json re);
  // A moderator acted on `account`: its connections are told (`frame`) and read their relations again (a chat mute).
  void moderated(const std::string& account, const std::string& frame);

  // Another node's notice (cluster): frames for accounts connected here, relations to read again.
  void heard(const nlohmann::json& notice);

 private:
  // On the worker: the named account (by its name's key), if there is one.
  std::optional<AccountRow> account_named(const std::string& name);
  // `frame` to every connection of `accounts` here and, with several nodes, elsewhere; `reread`: their relations
  // changed, and each connection reads them again.
  void tell(const std::vector<std::string>& accounts, const std::string& frame, bool reread);
  void tell_here(const std::vector<std::string>& accounts, const std::string& frame, bool reread);
  void reread_relations(const std::string& account);  // on the worker
  Relations read_relations(const std::string& account);
  // The account's presence as its friends see it, across nodes; and the person entry of a friend.
  protocol::Presence presence(const std::string& account);
  // The presence of each account, in one store read.
  std::map<std::string, protocol::Presence> presence_of(const std::vector<std::string>& accounts);
  protocol::Person friend_entry(const RelationRow& row);
  // The account's presence on this node changed: stored, and its friends told.
  void presence_changed(const std::string& account);
  std::vector<std::shared_ptr<Member>> members_of(const std::string& account);
  std::vector<std::string> friends_of(const std::string& account);

  PeopleStore& people_;
  const Settings settings_;
  Cluster* cluster_ = nullptr;
  TableNotices* notices_ = nullptr;
  Throttle requests_, invitations_, reports_;
  std::mutex mutex_;  // guards members_
  std::multimap<std::string, std::weak_ptr<Member>> members_;  // this node's signed-in connections, by account
  std::map<std::string, PresenceRow> written_;  // worker only: each account's presence row as last stored here
  WorkerPool worker_;  // last: stopped first
};

}  // namespace emporium::server
