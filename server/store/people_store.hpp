#pragma once
// What is kept of people (docs/accounts.md): accounts, their passkeys, sessions, sign-ins, passkey challenges,
// the seats they claimed and the chat lines they wrote. Implemented for SQLite and PostgreSQL (the same tables,
// made by the schema's versioned migrations), each with a connection of its own so that account traffic never
// waits behind the moves'. Calls are synchronous and thread-safe; they run on workers, never a network thread,
// and fail with StoreError (store.hpp) as the game store's do. Times are Unix seconds.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "store/store.hpp"

namespace emporium::server {

struct AccountRow {
  std::string id, name, name_key;  // name_key: protocol::accounts::name_key(name), unique
  std::string password_hash;       // crypto_pwhash_str's text; empty: no password
  long long created_at = 0;
  // Read only (moderation sets them): "moderator" or empty; until when it may not sign in, or chat (0: free).
  std::string role{};
  long long suspended_until = 0, chat_muted_until = 0;
};
struct PasskeyRow {
  std::string id, account, public_key, label;  // id and public_key in base64url (webauthn.hpp)
  int alg = 0;
  std::uint32_t sign_count = 0;
  long long created_at = 0, last_used_at = 0;
};
struct SessionRow {
  std::string id_hash;    // SHA-256 of the cookie's id: the id itself is never stored
  std::string public_id;  // names the session on the account page
  std::string account, device;
  long long created_at = 0, last_seen_at = 0, expires_at = 0;
};
struct SignInRow {
  std::string account;  // empty: a failed attempt on a name no account has
  std::string method, device, address;
  bool ok = false;
  long long at = 0;
};
struct ChallengeRow {
  std::string challenge, purpose;  // purpose: "sign_up", "sign_in" or "add"
  std::string account;             // sign_up: the account's id to be; add: the signed-in account's
  long long expires_at = 0;
};
struct ClaimRow {
  std::string token_hash, account, table_id;
  long long claimed_at = 0;
  // Read from the seat and its table (for the account's export): the game, the table's state, the seat's number
  // and the name it was taken under.
  std::string game, state, name;
  int seat = -1;
};
// A seat an account claimed with its table as stored, every seat and no action: what My games tells of a claimed
// seat whose table is not in memory, read with the claims rather than a table at a time.
struct ClaimedTable {
  std::string token_hash;
  StoredTable table;
};
struct ChatRow {
  std::string account, table_id, text;
  long long at = 0;
};

// Ratings (docs/ratings.md "Storage"): an account's rating in a game, mu and sigma as stored (exact).
struct RatingRow {
  std::string account, game;
  double mu = 0, sigma = 0;
  int displayed = 0;
  bool provisional = true;
  long long games = 0;  // rated games played
};
// One rating update: an account's at a finished rated table.
struct RatingUpdateRow {
  std::string table_id, account, game;
  int seat = 0, rank = 0;
  double mu_before = 0, sigma_before = 0, mu_after = 0, sigma_after = 0;
  int displayed_before = 0, displayed_after = 0;
  long long at = 0;
};
// A finished game of an account's seat (rated or not).
struct GameResultRow {
  std::string table_id, account, game;
  int seat = 0, rank = 0, players = 0;
  bool rated = false, is_private = false;
  std::string left_by;  // "left", "timeout", or empty: played to the end
  long long finished_at = 0;
  std::optional<int> delta;  // a rated game's displayed change, once stored
};
struct LeaderboardRow {
  int place = 0;
  std::string name;
  int displayed = 0;
  long long games = 0;
};

// Friends (docs/friends.md "Storage"). Someone `account` has a relation with, as `account` sees it: "friend",
// "incoming" (they asked), "outgoing" (asked them) or "blocked" (blocked them). `at`: since when.
struct RelationRow {
  std::string other, name, relation;
  long long at = 0;
};
// What a friend request did.
enum class FriendRequest {
  sent,               // stored: the other is asked
  became_friends,     // the other had asked already: now friends, both requests gone
  already_friends,
  already_requested,
  you_blocked,        // the asker blocked the other: nothing stored
  unknown,            // no such account: nothing stored
};
// An account's presence on one node (none: not connected there).
struct PresenceRow {
  std::string account, node;
  std::string status;          // "online" or "playing"
  std::string table_id, game;  // empty: no table to show
  long long updated_at = 0;
};
// A friend's presence across the nodes, with the account's last sign of life.
struct FriendPresence {
  std::string account;
  std::vector<PresenceRow> nodes;  // empty: offline
  long long last_seen_at = 0;      // 0: never seen
};
struct InvitationRow {
  std::string table_id, account, from_account;
  long long at = 0;
  // Read with it (invitations_of): the inviter's name and the table's game, seats and invite code (if any).
  std::string from_name, game, invite;
  int players = 0;
};

// A report of a player by another (docs/friends.md "Reports"): the table's context as the room saw it then.
struct ReportRow {
  std::string id, reporter, account, table_id, reason, note;
  std::string context;  // JSON: the table, the chat around, the public view at that moment
  std::string state = "open";  // "open" or "resolved"
  long long created_at = 0;
  std::string reporter_name{}, account_name{};  // read with it
};
// What a moderator did, and why; `until` for a mute or a suspension.
struct ModerationRow {
  std::string id, report, moderator, account;
  std::string action;  // "dismiss", "warn", "mute", "suspend"
  std::string reason;
  long long until = 0, at = 0;
  std::string moderator_name{};  // read with it
};

// Mail (docs/mail.md): an account's address and what it wants to hear of.
struct MailSettingsRow {
  std::string account;
  std::string address{};  // confirmed; empty: none
  std::string pending{};  // entered, its confirmation mail sent, not confirmed yet; empty: none
  std::string language{"en"};
  bool your_turn = true;
  int turn_delay_minutes = 10;
  bool game_over = true, invited = true, low_clock = true, digest = false;
  long long updated_at = 0;
};

// A vacation (docs/mail.md "Vacation"): from `starts_at` until `ends_at` (Unix seconds), the account's clocks stop
// at correspondence tables that allow it. Ending one early moves `ends_at`.
struct VacationRow {
  std::string account;
  long long starts_at = 0, ends_at = 0;
};

// A browser's push subscription (docs/push.md): where its push service takes messages for it, and its keys as the
// browser gave them (base64url), checked by push/web_push.hpp before they are stored.
struct PushSubscriptionRow {
  std::string account, endpoint, p256dh, auth;
  long long created_at = 0;
};

class PeopleStore {
 public:
  virtual ~PeopleStore() = default;

  // The account and its first passkey in one transaction: a crash midway leaves no half account. False when the
  // name's key (or the passkey's id) is taken.
  virtual bool create_account(const AccountRow& account, const std::optional<PasskeyRow>& first_passkey) = 0;
  virtual std::optional<AccountRow> account(const std::string& id) = 0;
  virtual std::optional<AccountRow> account_by_name_key(const std::string& name_key) = 0;
  virtual void set_password(const std::string& account, const std::string& hash) = 0;

  virtual bool add_passkey(const PasskeyRow& passkey) = 0;  // false: that credential id is stored already
  virtual std::optional<PasskeyRow> passkey(const std::string& id) = 0;
  virtual std::vector<PasskeyRow> passkeys_of(const std::string& account) = 0;
  // Compare-and-set on the counter: false when it is no longer `old_count` (another sign-in came first).
  virtual bool use_passkey(const std::string& id, std::uint32_t old_count, std::uint32_t new_count, long long at) = 0;
  virtual bool rename_passkey(const std::string& account, const std::string& id, const std::string& label) = 0;
  // Removes it unless it is the account's last way to sign in (its only passkey, and no password): checked in the
  // same transaction as the removal, so two removals at once cannot both pass.
  enum class Removal { removed, no_such_passkey, last_sign_in_method };
  virtual Removal remove_passkey(const std::string& account, const std::string& id) = 0;

  virtual void create_session(const SessionRow& session) = 0;
  virtual std::optional<SessionRow> session(const std::string& id_hash) = 0;
  virtual void touch_session(const std::string& id_hash, long long last_seen, long long expires_at) = 0;
  virtual bool delete_session(const std::string& id_hash) = 0;
  virtual bool delete_session_by_public_id(const std::string& account, const std::string& public_id) = 0;
  virtual std::size_t delete_sessions_of(const std::string& account) = 0;
  // Every session of the account but `kept` (a public id); the public ids of those deleted.
  virtual std::vector<std::string> delete_sessions_but(const std::string& account, const std::string& kept) = 0;
  virtual std::vector<SessionRow> sessions_of(const std::string& account, long long now) = 0;  // newest first

  // Keeps the newest 100 per account.
  virtual void record_sign_in(const SignInRow& sign_in) = 0;
  virtual std::vector<SignInRow> sign_ins_of(const std::string& account, std::size_t limit) = 0;  // newest first
  // Failed sign-ins at `since` or later: the account's, and those from an address (unknown names' included).
  virtual std::size_t failures_since(const std::string& account, long long since) = 0;
  virtual std::size_t failures_from(const std::string& address, long long since) = 0;

  virtual void put_challenge(const ChallengeRow& challenge) = 0;
  // Deletes it: it answers once. None if it is unknown or expired.
  virtual std::optional<ChallengeRow> take_challenge(const std::string& challenge, long long now) = 0;

  // Claims each seat (by its token's hash) that exists and no other account holds; returns the account's claims
  // among them.
  virtual std::vector<ClaimRow> claim_seats(const std::string& account, const std::vector<std::string>& token_hashes,
                                            long long now) = 0;
  virtual std::vector<ClaimRow> claims_of(const std::string& account) = 0;  // of seats that still exist
  virtual std::optional<std::string> account_of_seat(const std::string& token_hash) = 0;  // who claimed it
  // The account's claim on a seat at `table_id` (one indexed row), if it has one there.
  virtual std::optional<ClaimRow> claim_at(const std::string& account, const std::string& table_id) = 0;
  // The account's newest `limit` claims (of seats that still exist), newest first, each with its table: one read.
  virtual std::vector<ClaimedTable> claimed_tables(const std::string& account, std::size_t limit) = 0;

  virtual void record_chat(const ChatRow& line) = 0;
  virtual std::vector<ChatRow> chat_of(const std::string& account) = 0;

  // Ratings. The accounts' ratings in `game` (those that have one).
  virtual std::vector<RatingRow> ratings_of(const std::vector<std::string>& accounts, const std::string& game) = 0;
  virtual std::vector<RatingRow> ratings_of_account(const std::string& account) = 0;
  // A table's updates, in seat order; an account's, oldest first (`with_private`: also those of private tables).
  virtual std::vector<RatingUpdateRow> rating_updates_of_table(const std::string& table) = 0;
  virtual std::vector<RatingUpdateRow> rating_updates_of(const std::string& account, bool with_private) = 0;
  // An account's finished games, newest first, at most `limit` (with each rated one's delta).
  virtual std::vector<GameResultRow> results_of(const std::string& account, bool with_private, std::size_t limit) = 0;
  // Per game: how many finished games, won (rank 1), left ("left"), lost to timeouts ("timeout").
  struct ResultCounts {
    std::string game;
    long long played = 0, won = 0, left = 0, timed_out = 0;
  };
  virtual std::vector<ResultCounts> result_counts(const std::string& account, bool with_private) = 0;
  // The leaderboard of `game`: settled ratings (not provisional) of at least `min_games` rated games, by displayed
  // rating, then more games, then name; the first `limit`, and `account`'s row (any place) if it qualifies.
  virtual std::vector<LeaderboardRow> leaderboard(const std::string& game, long long min_games, std::size_t limit) = 0;
  virtual std::optional<LeaderboardRow> leaderboard_place(const std::string& game, long long min_games,
                                                          const std::string& account) = 0;

  // Friends. Every relation `account` has, as it sees them (not who blocked it: blocked_by).
  virtual std::vector<RelationRow> relations_of(const std::string& account) = 0;
  virtual std::vector<std::string> blocked_by(const std::string& account) = 0;
  // A request from `from` to `to`; when `to` had asked `from` already they become friends. A request to someone
  // who blocked `from` is stored like any other and never shown to them (blocking is silent).
  virtual FriendRequest request_friend(const std::string& from, const std::string& to, long long at) = 0;
  // `account` accepts the request `from` sent: friends (both directions), the request gone. False: no request.
  virtual bool accept_friend(const std::string& account, const std::string& from, long long at) = 0;
  virtual bool delete_friend_request(const std::string& from, const std::string& to) = 0;  // false: none
  virtual bool remove_friend(const std::string& account, const std::string& other) = 0;    // false: not friends
  // Blocks `other` (false: blocked already): their friendship and requests both ways go with it, and the
  // invitations between them.
  virtual bool block(const std::string& account, const std::string& other, long long at) = 0;
  virtual bool unblock(const std::string& account, const std::string& other) = 0;  // false: not blocked

  // Presence: this node's row of an account (replaced), or its removal when its last connection here closes (the
  // account was then last seen at `at`); every row a node left behind (its start).
  virtual void set_presence(const PresenceRow& row) = 0;
  virtual void clear_presence(const std::string& account, const std::string& node, long long at) = 0;
  virtual void clear_node_presence(const std::string& node) = 0;
  virtual std::vector<FriendPresence> presence_of(const std::vector<std::string>& accounts) = 0;

  // Invitations to waiting tables. False: `account` is invited to that table already.
  virtual bool add_invitation(const InvitationRow& invitation) = 0;
  // Those still open: to tables still waiting where `account` has no seat.
  virtual std::vector<InvitationRow> invitations_of(const std::string& account) = 0;
  // Takes one back (declined): who had sent it, if it was there.
  virtual std::optional<std::string> take_invitation(const std::string& table_id, const std::string& account) = 0;

  // Moderation. The role of an account (a command-line tool grants it; empty: none).
  virtual bool set_role(const std::string& account, const std::string& role) = 0;
  virtual std::vector<AccountRow> accounts_with_role(const std::string& role) = 0;
  virtual void add_report(const ReportRow& report) = 0;
  virtual std::vector<ReportRow> open_reports(std::size_t limit) = 0;  // oldest first
  virtual std::optional<ReportRow> open_report(const std::string& id) = 0;
  // One transaction: the action recorded, its report (if any, and open) resolved, and a mute or suspension set on
  // the account. False when the report is not open (another moderator came first): nothing changed.
  virtual bool moderate(const ModerationRow& action) = 0;
  virtual std::vector<ModerationRow> moderation_of(const std::string& account) = 0;  // newest first

  // Correspondence games (docs/mail.md "Limits"): the account's seats at waiting or running tables whose clock gives
  // at least `correspondence_turn_s` per move, and its finished games.
  struct GameLoad {
    long long correspondence = 0, finished = 0;
  };
  virtual GameLoad game_load(const std::string& account, int correspondence_turn_s) = 0;

  // Mail. An account's settings (none: it never gave an address), replaced whole.
  virtual std::optional<MailSettingsRow> mail_settings(const std::string& account) = 0;
  virtual void put_mail_settings(const MailSettingsRow& settings) = 0;
  // Makes `address` the account's confirmed one if it is still the one waiting for confirmation; false otherwise.
  virtual bool confirm_mail_address(const std::string& account, const std::string& address, long long at) = 0;
  // Records that the mail of `kind` about `table_id` marked `mark` went to `account`: false when one had already
  // (the row is the promise that it goes once, across restarts and nodes).
  virtual bool mark_mail_sent(const std::string& account, const std::string& table_id, const std::string& kind,
                              long long mark, long long at) = 0;
  // The server's key called `name`; `fresh` becomes it when there is none yet (the first node's wins).
  virtual std::string server_key(const std::string& name, const std::string& fresh, long long at) = 0;

  // Vacations. The account's that end after `since`, oldest first.
  virtual std::vector<VacationRow> vacations_of(const std::string& account, long long since) = 0;
  // Stores `vacation` unless one of the account's runs at its start: false then.
  virtual bool start_vacation(const VacationRow& vacation) = 0;
  // The account's vacation running at `at` ends then: false when none runs.
  virtual bool end_vacation(const std::string& account, long long at) = 0;
  // Of `accounts`, those on vacation at `now`, with when each vacation ends.
  virtual std::map<std::string, long long> vacations_until(const std::vector<std::string>& accounts, long long now) = 0;

  // Push subscriptions. Adds (or moves to `s.account`, renewed) the one of `s.endpoint`; beyond `keep` of the
  // account's, the oldest go. One transaction.
  virtual void add_push_subscription(const PushSubscriptionRow& s, std::size_t keep) = 0;
  // Removes the subscription of `endpoint` if it is `account`'s (any account's when `account` is empty): false when
  // there was none.
  virtual bool remove_push_subscription(const std::string& endpoint, const std::string& account) = 0;
  virtual std::vector<PushSubscriptionRow> push_subscriptions(const std::string& account) = 0;  // oldest first

  // One transaction: everything of the account gone, its finished tables' seats renamed to `deleted_name`.
  virtual void delete_account(const std::string& account, const std::string& deleted_name) = 0;
  // Sessions and challenges past their time, and failed sign-ins on unknown names older than a day (they only count
  // toward their address's limit); how many rows.
  virtual std::size_t delete_expired(long long now) = 0;
};

// The people store beside the game store a `--store` setting names (open_store.hpp), on its own connection.
std::unique_ptr<PeopleStore> open_people_store(const std::string& setting);

}  // namespace emporium::server
