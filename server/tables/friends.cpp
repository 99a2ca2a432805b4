#include "tables/friends.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include <emporium/protocol/accounts.hpp>

#include "cluster/cluster.hpp"
#include "common/secrets.hpp"
#include "common/wall_clock.hpp"
#include "tables/member.hpp"
#include "tables/table_notices.hpp"

namespace emporium::server {

namespace perr = protocol::errc;
using Json = nlohmann::json;

namespace {
// Accounts per cluster notice: a notice must stay under PostgreSQL's 8,000 bytes with its frame.
constexpr std::size_t kAccountsPerNotice = 100;
}  // namespace

Friends::Friends(PeopleStore& people, Settings settings)
    : people_(people),
      settings_(std::move(settings)),
      requests_(settings_.requests_per_hour, std::chrono::hours(1)),
      invitations_(settings_.invitations_per_10_min, std::chrono::minutes(10)),
      reports_(settings_.reports_per_hour, std::chrono::hours(1)),
      worker_(1, 5) {}

Friends::~Friends() = default;

void Friends::start() {
  try {
    people_.clear_node_presence(settings_.node);
  } catch (const StoreError& e) {
    spdlog::warn("friends: this node's presence from its last run could not be cleared: {}", e.what());
  }
}

// ---- Connections and presence

void Friends::arrived(const std::shared_ptr<Member>& member) {
  const std::string account = member->account()->account;
  {
    std::lock_guard hold(mutex_);
    members_.emplace(account, member);
  }
  worker_.post([this, weak = std::weak_ptr<Member>(member), account] {
    if (auto m = weak.lock()) {
      try {
        m->relations_read(std::make_shared<const Relations>(read_relations(account)));
      } catch (const StoreError& e) {
        spdlog::warn("friends: relations could not be read: {}", e.what());
        m->relations_read(nullptr);  // what needs them is refused with store_unavailable until read again
      }
    }
    presence_changed(account);
  });
}

void Friends::gone(const Member* member, const std::string& account) {
  {
    std::lock_guard hold(mutex_);
    auto [first, last] = members_.equal_range(account);
    for (auto it = first; it != last;) {
      const auto m = it->second.lock();
      it = (!m || m.get() == member) ? members_.erase(it) : std::next(it);
    }
  }
  worker_.post([this, account] { presence_changed(account); });
}

void Friends::seats_changed(const std::string& account) {
  worker_.post([this, account] { presence_changed(account); });
}

void Friends::reread(const std::string& account) {
  worker_.post([this, account] { reread_relations(account); });
}

std::vector<std::shared_ptr<Member>> Friends::members_of(const std::string& account) {
  std::vector<std::shared_ptr<Member>> out;
  std::lock_guard hold(mutex_);
  auto [first, last] = members_.equal_range(account);
  for (auto it = first; it != last; ++it) {
    if (auto m = it->second.lock()) out.push_back(std::move(m));
  }
  return out;
}

void Friends::presence_changed(const std::string& account) {
  // This node's row: none when the account has no connection here.
  std::optional<PresenceRow> row;
  std::string name;
  for (const auto& m : members_of(account)) {
    name = m->account()->name;
    if (!row) row = PresenceRow{account, settings_.node, "online", "", "", unix_now()};
    if (const auto where = m->sitting(); where && (row->status != "playing" || (where->shown && row->table_id.empty()))) {
      row->status = "playing";
      row->table_id = where->shown ? where->table : "";
      row->game = where->shown ? where->game : "";
    }
  }
  const auto written = written_.find(account);
  const bool same = written == written_.end()
                        ? !row
                        : row && row->status == written->second.status && row->table_id == written->second.table_id;
  if (same) return;
  try {
    if (row) {
      people_.set_presence(*row);
      written_[account] = *row;
    } else {
      people_.clear_presence(account, settings_.node, unix_now());
      written_.erase(account);
    }
    const auto friends = friends_of(account);
    if (friends.empty()) return;
    if (name.empty()) {
      const auto stored = people_.account(account);
      if (!stored) return;
      name = stored->name;
    }
    tell(friends, protocol::render_person(nullptr, {name, "friend", presence(account), std::nullopt}), false);
  } catch (const StoreError& e) {
    spdlog::warn("friends: a presence could not be stored: {}", e.what());
  }
}

namespace {
// What friends are told of an account's presence rows across the nodes.
protocol::Presence shown_presence(const FriendPresence& f) {
  protocol::Presence p;
  if (f.nodes.empty()) {
    if (f.last_seen_at > 0) p.last_seen = f.last_seen_at;
    return p;
  }
  p.status = "online";
  for (const auto& node : f.nodes) {
    if (node.status != "playing") continue;
    p.status = "playing";
    if (!node.table_id.empty()) {
      p.table = node.table_id;
      p.game = node.game;
      break;
    }
  }
  return p;
}
}  // namespace

protocol::Presence Friends::presence(const std::string& account) {
  const auto found = people_.presence_of({account});
  return found.empty() ? protocol::Presence{} : shown_presence(found.front());
}

std::map<std::string, protocol::Presence> Friends::presence_of(const std::vector<std::string>& accounts) {
  std::map<std::string, protocol::Presence> out;
  if (accounts.empty()) return out;
  for (const auto& f : people_.presence_of(accounts)) out[f.account] = shown_presence(f);
  return out;
}

std::vector<std::string> Friends::friends_of(const std::string& account) {
  std::vector<std::string> out;
  for (const auto& r : people_.relations_of(account)) {
    if (r.relation == "friend") out.push_back(r.other);
  }
  return out;
}

Relations Friends::read_relations(const std::string& account) {
  Relations r;
  for (const auto& row : people_.relations_of(account)) {
    if (row.relation == "friend") r.friends.insert(row.other);
    if (row.relation == "blocked") r.blocked.insert(row.other);
  }
  for (auto& other : people_.blocked_by(account)) r.blocked_by.insert(std::move(other));
  if (const auto row = people_.account(account)) r.chat_muted_until = row->chat_muted_until;
  return r;
}

void Friends::reread_relations(const std::string& account) {
  const auto members = members_of(account);
  if (members.empty()) return;
  std::shared_ptr<const Relations> relations;
  try {
    relations = std::make_shared<const Relations>(read_relations(account));
  } catch (const StoreError& e) {
    spdlog::warn("friends: relations could not be read again: {}", e.what());
  }
  for (const auto& m : members) m->relations_read(relations);
}

// ---- Telling people, here and on the other nodes

void Friends::tell(const std::vector<std::string>& accounts, const std::string& frame, bool reread) {
  tell_here(accounts, frame, reread);
  if (!cluster_) return;
  for (std::size_t i = 0; i < accounts.size(); i += kAccountsPerNotice) {
    const auto end = accounts.begin() + static_cast<std::ptrdiff_t>(std::min(accounts.size(), i + kAccountsPerNotice));
    cluster_->tell_people(Json{{"to", std::vector<std::string>(accounts.begin() + static_cast<std::ptrdiff_t>(i), end)},
                               {"frame", frame},
                               {"reread", reread}});
  }
}

void Friends::tell_here(const std::vector<std::string>& accounts, const std::string& frame, bool reread) {
  const auto shared = std::make_shared<const std::string>(frame);
  for (const auto& account : accounts) {
    // Relations first: a client that acts on the frame (joins a friend's table) finds them read.
    if (reread) reread_relations(account);
    if (frame.empty()) continue;
    for (const auto& m : members_of(account)) m->send(shared);
  }
}

void Friends::heard(const Json& notice) {
  if (!notice.contains("to") || !notice["to"].is_array()) return;
  std::vector<std::string> accounts;
  for (const auto& a : notice["to"]) {
    if (a.is_string()) accounts.push_back(a.get<std::string>());
  }
  const std::string frame = notice.value("frame", std::string());
  const bool reread = notice.value("reread", false);
  worker_.post([this, accounts = std::move(accounts), frame, reread] { tell_here(accounts, frame, reread); });
}

// ---- Requests

std::optional<AccountRow> Friends::account_named(const std::string& name) {
  const auto key = protocol::accounts::name_key(name);
  if (key.empty()) return std::nullopt;
  return people_.account_by_name_key(key);
}

void Friends::list(std::shared_ptr<Member> member, Json re) {
  worker_.post([this, member = std::move(member), re = std::move(re)] {
    const std::string account = member->account()->account;
    try {
      if (!member->relations()) reread_relations(account);  // the first read failed: again
      const auto rows = people_.relations_of(account);
      std::vector<std::string> friends;
      for (const auto& row : rows) {
        if (row.relation == "friend") friends.push_back(row.other);
      }
      auto presences = presence_of(friends);
      std::vector<protocol::Person> people;
      for (const auto& row : rows) {
        protocol::Person p{row.name, row.relation, std::nullopt, row.at};
        if (row.relation == "friend") p.presence = presences[row.other];
        people.push_back(std::move(p));
      }
      std::vector<protocol::Invitation> invitations;
      for (const auto& i : people_.invitations_of(account)) {
        invitations.push_back({i.table_id, i.game, i.from_name, i.players,
                               i.invite.empty() ? std::nullopt : std::optional<std::string>(i.invite), i.at});
      }
      member->send(protocol::render_friends(re, people, invitations));
    } catch (const StoreError& e) {
      member->refuse_later(re, perr::store_unavailable, protocol::kStoreUnavailableMessage);
    }
  });
}

void Friends::relate(std::shared_ptr<Member> member, protocol::Relate request, Json re) {
  worker_.post([this, member = std::move(member), request = std::move(request), re = std::move(re)] {
    using Kind = protocol::Relate::Kind;
    const auto& me = *member->account();
    const auto no = [&](const char* code, const std::string& message) { member->refuse_later(re, code, message); };
    const bool asks = request.kind == Kind::request || request.kind == Kind::block;
    if (asks && requests_.wait(me.account) > Throttle::Clock::duration::zero()) {
      return no(perr::rate_limited, "too many friend requests and blocks in the last hour; try again later");
    }
    try {
      const auto other = account_named(request.name);
      if (!other) {
        switch (request.kind) {
          case Kind::request:
          case Kind::block: return no(perr::no_such_player, "no player is called " + request.name);
          case Kind::remove: return no(perr::not_friends, request.name + " is not your friend");
          case Kind::unblock: return no(perr::not_blocked, "you have not blocked " + request.name);
          default: return no(perr::no_such_request, "there is no friend request between you and " + request.name);
        }
      }
      if (other->id == me.account) return no(perr::self, "that is you");
      if (asks) requests_.count(me.account);
      const long long now = unix_now();
      const protocol::Person none{other->name, "none", std::nullopt, std::nullopt};
      const protocol::Person me_none{me.name, "none", std::nullopt, std::nullopt};
      const auto blocked_me = [&] {
        const auto by = people_.blocked_by(me.account);
        return std::find(by.begin(), by.end(), other->id) != by.end();
      };
      // Now friends: each is shown the other, with their presence, and both read their relations again.
      const auto befriended = [&] {
        tell({other->id}, protocol::render_person(nullptr, {me.name, "friend", presence(me.account), now}), true);
        tell({me.account}, "", true);
        member->send(protocol::render_person(re, {other->name, "friend", presence(other->id), now}));
      };
      // Whoever's relations change reads them again before the answer goes: the next request sees them.
      switch (request.kind) {
        case Kind::request:
          switch (people_.request_friend(me.account, other->id, now)) {
            case FriendRequest::sent:
              member->send(protocol::render_person(re, {other->name, "outgoing", std::nullopt, now}));
              // Blocking is silent: the request is kept, and never shown to the one who blocked.
              if (!blocked_me()) {
                tell({other->id}, protocol::render_person(nullptr, {me.name, "incoming", std::nullopt, now}), false);
              }
              return;
            case FriendRequest::became_friends: return befriended();
            case FriendRequest::already_friends: return no(perr::already_friends, other->name + " is your friend already");
            case FriendRequest::already_requested:
              return no(perr::already_requested, "you have asked " + other->name + " already");
            case FriendRequest::you_blocked:
              return no(perr::blocked, "you blocked " + other->name + ": unblock them first");
            case FriendRequest::unknown: return no(perr::no_such_player, "no player is called " + request.name);
          }
          return;
        case Kind::accept:
          if (!people_.accept_friend(me.account, other->id, now)) {
            return no(perr::no_such_request, other->name + " has not asked to be your friend");
          }
          return befriended();
        case Kind::decline:
          if (!people_.delete_friend_request(other->id, me.account)) {
            return no(perr::no_such_request, other->name + " has not asked to be your friend");
          }
          member->send(protocol::render_person(re, none));
          tell({other->id}, protocol::render_person(nullptr, me_none), false);
          return;
        case Kind::cancel:
          if (!people_.delete_friend_request(me.account, other->id)) {
            return no(perr::no_such_request, "you have not asked " + other->name + " to be your friend");
          }
          member->send(protocol::render_person(re, none));
          if (!blocked_me()) tell({other->id}, protocol::render_person(nullptr, me_none), false);
          return;
        case Kind::remove:
          if (!people_.remove_friend(me.account, other->id)) return no(perr::not_friends, other->name + " is not your friend");
          tell({other->id}, protocol::render_person(nullptr, me_none), true);
          tell({me.account}, "", true);
          member->send(protocol::render_person(re, none));
          return;
        case Kind::block:
          people_.block(me.account, other->id, now);  // blocked already: the same answer
          // Silent: they only lose whatever they had of this account (a friendship, a request), as by a removal.
          tell({other->id}, protocol::render_person(nullptr, me_none), true);
          tell({me.account}, "", true);
          member->send(protocol::render_person(re, {other->name, "blocked", std::nullopt, now}));
          return;
        case Kind::unblock:
          if (!people_.unblock(me.account, other->id)) return no(perr::not_blocked, "you have not blocked " + other->name);
          tell({other->id}, "", true);
          tell({me.account}, "", true);
          member->send(protocol::render_person(re, none));
          return;
      }
    } catch (const StoreError&) {
      no(perr::store_unavailable, protocol::kStoreUnavailableMessage);
    }
  });
}

void Friends::invite(std::shared_ptr<Member> member, InvitingTable table, std::string name, Json re) {
  worker_.post([this, member = std::move(member), table = std::move(table), name = std::move(name),
                re = std::move(re)] {
    const auto& me = *member->account();
    const auto no = [&](const char* code, const std::string& message) { member->refuse_later(re, code, message); };
    if (invitations_.wait(me.account) > Throttle::Clock::duration::zero()) {
      return no(perr::rate_limited, "too many invitations in the last ten minutes; try again later");
    }
    try {
      const auto other = account_named(name);
      if (!other) return no(perr::no_such_player, "no player is called " + name);
      if (other->id == me.account) return no(perr::self, "that is you");
      // The member's relations are kept current; read only when the first read failed.
      auto relations = member->relations();
      if (!relations) relations = std::make_shared<const Relations>(read_relations(me.account));
      if (!relations->friends.count(other->id)) {
        return no(perr::not_friends, "you can invite your friends only: " + other->name + " is not one yet");
      }
      if (std::find(table.seated.begin(), table.seated.end(), other->id) != table.seated.end()) {
        return no(perr::already_seated, other->name + " is at this table already");
      }
      invitations_.count(me.account);
      const long long now = unix_now();
      // An invitation sent already is not sent again (no flood of notices), and the answer is the same.
      if (people_.add_invitation({table.id, other->id, me.account, now, {}, {}, {}, 0})) {
        tell({other->id},
             protocol::render_invitation({table.id, table.game, me.name, table.players,
                                          table.invite.empty() ? std::nullopt : std::optional<std::string>(table.invite),
                                          now}),
             false);
        if (notices_ && members_of(other->id).empty()) {
          notices_->invited({table.id, table.game, other->id, me.name, table.invite, table.players});
        }
      }
      member->send(protocol::render_invited(re, table.id, other->name));
    } catch (const StoreError&) {
      no(perr::store_unavailable, protocol::kStoreUnavailableMessage);
    }
  });
}

void Friends::decline(std::shared_ptr<Member> member, std::string table, Json re) {
  worker_.post([this, member = std::move(member), table = std::move(table), re = std::move(re)] {
    const auto& me = *member->account();
    try {
      const auto from = people_.take_invitation(table, me.account);
      if (!from) {
        return member->refuse_later(re, perr::no_such_invitation, "you have no invitation to table " + table);
      }
      member->send(protocol::render_invitation_declined(re, table));
      tell({*from}, protocol::render_invitation_declined(nullptr, table, me.name), false);
    } catch (const StoreError&) {
      member->refuse_later(re, perr::store_unavailable, protocol::kStoreUnavailableMessage);
    }
  });
}

void Friends::report(std::shared_ptr<Member> member, ReportRow report, Json re) {
  worker_.post([this, member = std::move(member), report = std::move(report), re = std::move(re)]() mutable {
    const auto& me = *member->account();
    if (reports_.wait(me.account) > Throttle::Clock::duration::zero()) {
      return member->refuse_later(re, perr::rate_limited, "too many reports in the last hour; try again later");
    }
    try {
      reports_.count(me.account);
      report.id = random_token(9);
      report.reporter = me.account;
      report.created_at = unix_now();
      people_.add_report(report);
      spdlog::info("report {}: table {}, reason {}", report.id, report.table_id, report.reason);
      member->send(protocol::render_reported(re, report.id));
    } catch (const StoreError&) {
      member->refuse_later(re, perr::store_unavailable, protocol::kStoreUnavailableMessage);
    }
  });
}

void Friends::moderated(const std::string& account, const std::string& frame) {
  worker_.post([this, account, frame] { tell({account}, frame, true); });
}

}  // namespace emporium::server
