#pragma once
// Emporium wire protocol, version 1: pure functions over strings, no sockets.
// Every frame is one JSON object in a WebSocket text frame. See protocol/README.md for every
// message with an example.
//
// Client requests may carry "id" (a string of at most 64 characters, or an integer); the server
// echoes it as "re" in its direct reply to that request (including an error).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

namespace emporium::protocol {

using Json = nlohmann::json;

inline constexpr int kVersion = 1;

struct Limits {
  std::size_t max_name_chars = 32;    // display names, in Unicode code points, after trimming
  std::size_t max_chat_chars = 500;   // chat text, in Unicode code points
  std::size_t max_id_chars = 64;      // request ids
  std::size_t max_token_chars = 128;  // seat tokens, invite codes and table ids
  std::size_t max_my_games_tokens = 50;       // tokens in one my_games request
  std::size_t max_my_games_token_chars = 100;  // each of them
  std::size_t max_depth = 32;         // arrays and objects nested in a frame (copying JSON recurses)
  int min_turn_s = 5;                 // a turn clock's shortest turn (tests lower it to see clocks run out fast)
};

// Stable error codes sent to clients (games' rule errors pass through with their own codes).
namespace errc {
inline constexpr const char* bad_json = "bad_json";                  // not JSON, or not a JSON object
inline constexpr const char* bad_message = "bad_message";            // a field missing or of the wrong type
inline constexpr const char* unknown_type = "unknown_type";          // no such message type
inline constexpr const char* unsupported_protocol = "unsupported_protocol";
inline constexpr const char* frame_too_large = "frame_too_large";
inline constexpr const char* rate_limited = "rate_limited";
inline constexpr const char* bad_name = "bad_name";
inline constexpr const char* chat_too_long = "chat_too_long";
inline constexpr const char* no_such_table = "no_such_table";
inline constexpr const char* table_full = "table_full";
inline constexpr const char* seat_taken = "seat_taken";
inline constexpr const char* already_seated = "already_seated";
inline constexpr const char* not_seated = "not_seated";
inline constexpr const char* not_creator = "not_creator";
inline constexpr const char* not_enough_players = "not_enough_players";
inline constexpr const char* already_started = "already_started";
inline constexpr const char* not_started = "not_started";
inline constexpr const char* stale_version = "stale_version";
inline constexpr const char* bad_token = "bad_token";
inline constexpr const char* too_many_tables = "too_many_tables";
inline constexpr const char* not_absent = "not_absent";              // replace_absent: that player is not away long enough
inline constexpr const char* not_finished = "not_finished";          // rematch: the game has not ended
inline constexpr const char* replaced = "replaced";                  // your seat was resumed elsewhere
inline constexpr const char* not_signed_in = "not_signed_in";        // resume by table: only an account's seats
inline constexpr const char* signed_in = "signed_in";                // set_name: a signed-in player's name is the account's
inline constexpr const char* rated_needs_account = "rated_needs_account";  // a guest at a rated table: sign in
inline constexpr const char* too_many_games = "too_many_games";
// Undo (issue 37; the engine's undo_not_allowed passes through as a rule's code).
inline constexpr const char* preview_not_allowed = "preview_not_allowed";  // a previewed step, not the last, that shows something  // the account's correspondence games are at its limit
// Friends, invitations and blocks (issue 34).
inline constexpr const char* no_such_player = "no_such_player";      // no account has that name
inline constexpr const char* self = "self";                          // a friend request, block or invitation to yourself
inline constexpr const char* already_friends = "already_friends";
inline constexpr const char* already_requested = "already_requested";
inline constexpr const char* no_such_request = "no_such_request";    // accept, decline or cancel: no such request
inline constexpr const char* not_friends = "not_friends";            // remove, invite: only friends
inline constexpr const char* blocked = "blocked";                    // a request to someone you blocked: unblock first
inline constexpr const char* not_blocked = "not_blocked";
inline constexpr const char* no_such_invitation = "no_such_invitation";
inline constexpr const char* blocked_player = "blocked_player";      // join: you blocked someone seated there
inline constexpr const char* cannot_join = "cannot_join";            // join: someone seated there blocked you (not said)
inline constexpr const char* friends_only = "friends_only";          // join: the creator's friends and invitees only
// Chat and reports (issue 34).
inline constexpr const char* spectators_muted = "spectators_muted";  // the creator turned spectators' chat off
inline constexpr const char* chat_muted = "chat_muted";              // a moderator muted this account's chat for a time
inline constexpr const char* no_such_line = "no_such_line";          // report: no chat line of that id at this table
inline constexpr const char* not_moderator = "not_moderator";
inline constexpr const char* suspended = "suspended";                // the account is suspended (sign-in refused)
inline constexpr const char* internal_error = "internal_error";
// The server cannot reach its store (or it is too slow) now: nothing was changed; try again in a few seconds.
inline constexpr const char* store_unavailable = "store_unavailable";
}  // namespace errc

// The message of every store_unavailable refusal, whatever the request was.
inline constexpr const char* kStoreUnavailableMessage =
    "the server cannot reach its database now; nothing was changed: try again in a few seconds";

// ---- Client to server -------------------------------------------------------------------------

struct Hello {            // {"type":"hello","protocol":1,"name":"Ann"}  (name optional)
  int protocol = kVersion;
  std::optional<std::string> name;
};
struct SetName {          // {"type":"set_name","name":"Ann"}
  std::string name;
};
struct WatchLobby {       // {"type":"watch_lobby","on":true}  live list of public tables
  bool on = true;
};
// A turn clock: each decision gets `turn_s` seconds, then the seat's reserve of `reserve_s` seconds runs down.
struct ClockConfig {
  static constexpr int kMaxTurn = 86400, kMaxReserve = 86400;  // the shortest turn is in Limits
  int turn_s = 0;
  int reserve_s = 0;
  // Whether a player on vacation stops their clock here (correspondence clocks only; the creator may forbid it).
  bool vacations = true;
  Json to_json() const {
    Json j{{"turn", turn_s}, {"reserve", reserve_s}};
    if (!vacations) j["vacations"] = false;
    return j;
  }
  // What to_json wrote (a table frame's, the store's); throws nlohmann's errors when it is not that.
  static ClockConfig from_json(const Json& j) {
    return {j.at("turn").get<int>(), j.at("reserve").get<int>(), j.value("vacations", true)};
  }
  bool operator==(const ClockConfig&) const = default;
};
struct CreateTable {      // {"type":"create_table","game":"medici","players":3,"options":{},"private":false,
                          //  "clock":{"turn":60,"reserve":300,"vacations":true}}  (no clock: untimed)
  std::string game;
  int players = 0;
  Json options = Json::object();
  bool is_private = false;
  std::optional<ClockConfig> clock;
  std::optional<bool> rated;  // absent: rated when the creator is signed in, casual for a guest
  bool friends_only = false;  // signed in only: unlisted (it has an invite), and the creator's friends join by id
  std::optional<bool> undo;   // whether players may take back a step (docs/undo.md); absent: on unless rated
};
// A table is named by its id (public tables) or by its invite code (private ones; also works for public).
struct TableRef {
  std::optional<std::string> table;
  std::optional<std::string> invite;
};
struct Join {             // {"type":"join","table":"t8f3k2","seat":1}  or {"type":"join","invite":"..."}
  TableRef ref;
  std::optional<int> seat;  // any free seat when absent
};
struct Watch {            // {"type":"watch","table":"t8f3k2"}  or {"type":"watch","invite":"..."}
  TableRef ref;
};
struct Leave {            // {"type":"leave","table":"t8f3k2"}  a seat before the start, or stop watching
  std::string table;
};
struct Start {            // {"type":"start","table":"t8f3k2"}  the creator only
  std::string table;
};
struct AddBot {           // {"type":"add_bot","table":"t8f3k2","seat":2,"level":"normal"}  the creator, before the start
  std::string table;
  int seat = 0;
  std::string level = "normal";  // checked by the server against the levels it has
};
struct RemoveBot {        // {"type":"remove_bot","table":"t8f3k2","seat":2}
  std::string table;
  int seat = 0;
};
struct ReplaceAbsent {    // {"type":"replace_absent","table":"t8f3k2","seat":2}  a bot plays an absent player's seat
  std::string table;
  int seat = 0;
};
struct Resume {           // {"type":"resume","token":"..."}  take back a seat on this connection
  std::string token;      // empty: by `table`
  std::string table;      // {"type":"resume","table":"t8f3k2"}: a signed-in account's seat there, with no token
};
struct Act {              // {"type":"act","table":"t8f3k2","version":17,"action":{"type":"bid","amount":5}}
  std::string table;      // {"type":"undo","table":"t8f3k2","version":18} is the act of action {"type":"undo"}
  std::uint64_t version = 0;
  Json action;
};
// {"type":"preview","table":"t8f3k2","version":17,"actions":[{...},...]}: the sender's next steps tried on a copy of
// the game ("confirm my turn", docs/undo.md); nothing is stored or told to anyone else.
struct Preview {
  static constexpr std::size_t kMaxActions = 8;
  std::string table;
  std::uint64_t version = 0;
  std::vector<Json> actions;
};
struct SnapshotRequest {  // {"type":"snapshot","table":"t8f3k2"}
  std::string table;
};
struct Chat {             // {"type":"chat","table":"t8f3k2","text":"hello"}
  std::string table;
  std::string text;
};
struct Ping {};           // {"type":"ping"}
struct Rematch {          // {"type":"rematch","table":"t8f3k2"}  offer (or accept) a new game of a finished table
  std::string table;
};
struct MyGames {          // {"type":"my_games","tokens":["...",...]}  what these seat tokens' tables are; joins nothing
  std::vector<std::string> tokens;
};

// Friends and blocks (signed-in connections only; docs/friends.md). Names are account names.
struct Friends {};        // {"type":"friends"}  the lists, presence and invitations
struct Relate {           // {"type":"friend_request","name":"Ann"}, and the others of Kind, each with a name
  enum class Kind { request, accept, decline, cancel, remove, block, unblock };
  Kind kind = Kind::request;
  std::string name;
};
struct Invite {           // {"type":"invite","table":"t8f3k2","name":"Bo"}  a friend to a waiting table you sit at
  std::string table;
  std::string name;
};
struct DeclineInvitation {  // {"type":"decline_invitation","table":"t8f3k2"}
  std::string table;
};
// Chat at a table (docs/friends.md "Chat").
struct Mute {             // {"type":"mute","table":"t8f3k2","name":"Bo","on":true}  hide a person's chat from yourself
  std::string table;
  std::string name;
  bool on = true;
};
struct ChatSettings {     // {"type":"chat_settings","table":"t8f3k2","see_spectators":true,"spectators_may_chat":false}
  std::string table;
  std::optional<bool> see_spectators;       // a seated player: whether spectators' chat reaches them (off at first)
  std::optional<bool> spectators_may_chat;  // the creator: whether spectators may chat at all
};
struct Report {           // {"type":"report","table":"t8f3k2","name":"Bo","reason":"abuse","note":"...","line":12}
  static constexpr const char* kReasons[] = {"abuse", "cheating", "spam", "other"};
  std::string table;
  std::string name;
  std::string reason;
  std::string note;
  std::optional<std::uint64_t> line;  // the chat line reported, by its id
};

using Message = std::variant<Hello, SetName, WatchLobby, CreateTable, Join, Watch, Leave, Start, AddBot, RemoveBot,
                             ReplaceAbsent, Resume, Act, Preview, SnapshotRequest, Chat, Ping, Rematch, MyGames,
                             Friends, Relate, Invite, DeclineInvitation, Mute, ChatSettings, Report>;

struct Request {
  Json id;  // null when the client sent none
  Message message;
};

struct ParseError {
  Json id;  // the request's id when it could be read, else null
  std::string code;
  std::string message;
};

// Parses one client frame. Never throws. Names are trimmed; a name that is empty or too long, a chat
// that is empty or too long, or a bad id gives a ParseError with the matching code.
std::variant<Request, ParseError> parse_client_message(std::string_view frame, const Limits& limits = {});

// The request id of a frame, read the way parse_client_message reads it, without parsing the rest: for replies
// to frames that are not handled (rate_limited). Null when the frame is not a JSON object or its id is absent or
// unreadable. Never throws.
Json request_id(std::string_view frame, const Limits& limits = {});

// The message's "type" string, e.g. "act" (for logs and metrics).
std::string_view type_name(const Message& message);

// ---- Server to client -------------------------------------------------------------------------
// Each function returns the serialized frame. `re` is the request id to echo (null: omitted).

// A seat's rating on a rated table: a person's current displayed rating in the game, or a bot's fixed one.
struct SeatRating {
  int value = 0;
  bool provisional = false;
  bool bot = false;
};
// What one person's rating did at a finished rated table.
struct RatingChange {
  int seat = 0;
  int before = 0;
  int after = 0;
  bool provisional = false;  // after the game
};
// What a lobby or a table member is shown of a table.
struct SeatInfo {
  int seat = 0;
  std::optional<std::string> name;  // empty seat when absent
  bool connected = false;
  std::optional<std::string> bot;   // the bot's level when a bot holds the seat
  std::optional<std::string> stand_in;  // "left" or "absent" when that bot stands in for a person during a game
  std::optional<long long> away_s;      // a person's whole seconds disconnected, only while playing
  bool reserved = false;                // before a rematch starts: kept for `name`, who has not taken it yet
  std::optional<SeatRating> rating{};   // rated tables: a signed-in person's or a bot's
  // Unix seconds: the seat's account is on vacation until then, and its clock here stops (docs/mail.md "Vacation").
  std::optional<long long> vacation_until{};
};
// A finished table's offer of a new game: the new table, the offerer's seat, and its invite if private.
struct RematchOffer {
  std::string table;
  int by = 0;
  std::optional<std::string> invite;
};
struct TableInfo {
  std::string id;
  std::string game;
  int players = 0;  // seats
  Json options = Json::object();
  bool is_private = false;
  bool friends_only = false;  // sent only when true: a private table its creator's friends may join by id
  std::string state;  // "waiting", "playing" or "finished"
  std::vector<SeatInfo> seats;
  int spectators = 0;
  bool spectators_may_chat = true;  // sent only when false: the creator turned spectators' chat off
  int creator_seat = 0;
  std::optional<RematchOffer> rematch;   // on a finished table whose rematch was offered
  std::optional<std::string> rematch_of;  // on the rematch: the finished table it replays
  std::optional<ClockConfig> clock;  // timed tables only
  // The table's commitment to its randomness: SHA-256(salt || seed), hex (absent on tables from before
  // commitments). Once the game is over, the seed and salt it was made from (32 hex digits each).
  std::optional<std::string> commitment;
  std::optional<std::string> seed;
  std::optional<std::string> salt;
  bool rated = false;
  bool undo = true;  // whether players may take back a step (docs/undo.md)
  std::vector<RatingChange> rating_changes{};  // a finished rated table's, once stored (empty: none, not sent)
};
Json table_json(const TableInfo& table);
// The inverse of table_json, for the tables another node lists (docs/scaling.md): nothing when `j` is not one.
std::optional<TableInfo> table_info_from_json(const Json& j);
Json rematch_json(const RematchOffer& offer);
// The inverse of rematch_json: nothing when `j` is null (no offer); throws Json::exception when it is not an offer.
std::optional<RematchOffer> rematch_from_json(const Json& j);

// One entry of a my_games reply: the table a seat token belongs to, without anything of a game's view.
struct MyGame {
  std::string token;              // empty: a seat of the account's that the request did not name (sent as null)
  std::string table;
  std::string game;
  std::string state;              // "waiting", "playing" or "finished"
  int seat = 0;
  std::vector<SeatInfo> seats;    // only seat, name and bot are sent
  bool your_turn = false;
  Json result;                    // the engine's result() once finished, else null
  long long updated = 0;          // unix seconds of the table's last change
  std::optional<std::string> invite;
  std::vector<int> to_move{};     // a running game's seats whose decision it is (none when not known)
  bool rated = false;             // its end updates ratings (a rated game against bots is never ended for its person)
  // A timed game's running decision: whose it is and the time it has left (turn and reserve), in ms.
  struct Clock {
    int seat = 0;
    long long left_ms = 0;
    bool paused = false;  // its player is on vacation: left_ms stands still
  };
  std::optional<Clock> clock{};
};

// On connect: the protocol, the games, and (when given) how long a player must be away before replace_absent.
// `node`: the name of the node that answers, when the server is one of several (docs/scaling.md). `forsaken_after_s`
// (when given and not 0): how long a casual game of one person and bots waits for its person away.
std::string render_welcome(const Json& games, std::optional<long long> absent_after_s = std::nullopt,
                           std::string_view node = {}, std::optional<long long> forsaken_after_s = std::nullopt);
// The reply to hello and set_name: the connection's name and its account ({"id","name"}), null for a guest.
std::string render_hello(const Json& re, std::string_view name, const Json& account = nullptr);
std::string render_lobby(const Json& re, const std::vector<TableInfo>& tables);    // public tables
// To lobby watchers after the full list: a listed table is new or changed, or one is no longer listed.
std::string render_lobby_changed(const TableInfo& table);
std::string render_lobby_removed(std::string_view table);
// `clock` (in the table, seated, watching, snapshot and events frames): the live turn clock of a started
// timed table, {"reserve_ms":[..],"timeouts":[..],"running":null|{"seat","turn_ms","reserve_ms"}}; null: omitted.
std::string render_table(const Json& re, const TableInfo& table, const Json& clock = nullptr);  // a table changed
// Reply to create_table / join / resume: your seat and its secret token (invite only for private tables).
// `reclaimed`: a resume that took the seat back from a bot standing in for the absent player.
std::string render_seated(const Json& re, const TableInfo& table, int seat, std::string_view token,
                          const std::optional<std::string>& invite, bool reclaimed = false,
                          const Json& clock = nullptr);
std::string render_watching(const Json& re, const TableInfo& table, const Json& clock = nullptr);
std::string render_left(const Json& re, std::string_view table);
// A full filtered snapshot: the view for `seat` (null: spectator), and that seat's legal actions.
// `shuffle`: the table's "commitment" and, once the game is over, its "seed" and "salt" (merged into the frame).
std::string render_snapshot(const Json& re, std::string_view table, std::uint64_t version, const Json& seat,
                            const Json& view, const Json& legal, const Json& clock = nullptr,
                            const Json& shuffle = nullptr);
// One accepted action's events for one viewer, and that viewer's legal actions now, both given as JSON text (an
// array each): they go into the frame as they are, not copied into a tree and serialized again. `shuffle`: the
// game's "seed" and "salt", on the frames of the move that ends it.
std::string render_events(std::string_view table, std::uint64_t version, std::string_view events_json,
                          std::string_view legal_json, const Json& clock = nullptr, const Json& shuffle = nullptr);
std::string render_ack(const Json& re, std::uint64_t version);
// The reply to a preview: `final` false with the events (as the sender sees them), the sender's view and legal
// actions after the steps; `final` true (the last step draws, shows or hands on the turn) with only the events of
// the steps before it.
std::string render_preview(const Json& re, std::string_view table, std::uint64_t version, bool final,
                           const Json& events, const Json& view = nullptr, const Json& legal = nullptr);
// A chat line as a table keeps it: `id` numbers the table's lines (a report names one), `seat` is null for a
// spectator, `channel` "players" (a seated person's: everyone at the table reads it) or "spectators" (read by
// spectators, and by the players who chose to).
struct ChatLine {
  std::uint64_t id = 0;
  std::string from;
  Json seat;
  std::string channel = "players";
  std::string text;
  long long at = 0;
};
Json chat_line_json(const ChatLine& line);
std::string render_chat(std::string_view table, const ChatLine& line);
// The lines kept at a table that this member may read, oldest first: after seated, watching and resume.
std::string render_chat_history(std::string_view table, const std::vector<ChatLine>& lines);
std::string render_reported(const Json& re, std::string_view report);
std::string render_pong(const Json& re);
std::string render_my_games(const Json& re, const std::vector<MyGame>& games, const std::vector<std::string>& unknown);
std::string render_error(const Json& re, std::string_view code, std::string_view message);
// A preview's refusal of its step `step` (0-based): the error with "step".
std::string render_step_error(const Json& re, std::string_view code, std::string_view message, std::size_t step);

// ---- Friends (docs/friends.md) ----
// Where a friend is: "online", "playing" (seated at a waiting or running table) or "offline". The table and game
// only when friends may be shown them; last_seen (Unix seconds) only when offline.
struct Presence {
  std::string status = "offline";
  std::optional<std::string> table, game;
  std::optional<long long> last_seen;
  bool operator==(const Presence&) const = default;
};
// One person as a list shows them: `relation` is "friend", "incoming", "outgoing", "blocked" or "none".
struct Person {
  std::string name;
  std::string relation;
  std::optional<Presence> presence;  // friends only
  std::optional<long long> at;       // a request's time, or since when friends
};
struct Invitation {
  std::string table, game, from;
  int players = 0;
  std::optional<std::string> invite;  // the table's invite code, when it has one
  long long at = 0;
};
Json presence_json(const Presence& presence);
std::string render_friends(const Json& re, const std::vector<Person>& people, const std::vector<Invitation>& invitations);
std::string render_person(const Json& re, const Person& person);  // the "friend" frame
std::string render_invitation(const Invitation& invitation);
std::string render_invited(const Json& re, std::string_view table, std::string_view name);
// To the invitee (re: their request) and to the one who invited them (name: who declined).
std::string render_invitation_declined(const Json& re, std::string_view table, std::string_view name = {});

}  // namespace emporium::protocol
