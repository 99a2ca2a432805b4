#pragma once
// One table: its seats, spectators, chat and game. Every member function runs on the room's own strand (public
// calls post themselves there), so rooms never block each other and need no locks. The class spans a file per
// topic: room.cpp (joining as a spectator, snapshots, chat, the table's life in memory), room_seats.cpp (taking,
// leaving and handing over seats), room_play.cpp (the start and every move: applied, stored, announced),
// room_bots.cpp, room_clock.cpp (turn clocks) and room_rematch.cpp (rematches and my_games).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <optional>
#include <string>
#include <vector>

#include <emporium/engine/bot.hpp>
#include <emporium/engine/record.hpp>
#include <emporium/protocol/protocol.hpp>

#include "common/condition_timer.hpp"
#include "common/net.hpp"
#include "store/states.hpp"
#include "store/store.hpp"
#include "store/store_health.hpp"
#include "tables/member.hpp"
#include "tables/seats.hpp"
#include "tables/table_notices.hpp"
#include "tables/tables_context.hpp"
#include "tables/turn_clock.hpp"

namespace emporium::server {

using Json = nlohmann::json;

// Rebuilds a stored table's game by replaying its record.
engine::Replayed replay_stored(const StoredTable& stored);

class Room : public std::enable_shared_from_this<Room> {
 public:
  // `stored` is a new table or one read back from the store (then its actions are replayed).
  Room(net::any_io_executor executor, const TablesContext& context, const StoredTable& stored);

  // Immutable after construction: safe to read from any thread.
  const std::string& id() const { return id_; }
  const std::string& invite() const { return invite_; }
  bool is_private() const { return is_private_; }
  bool friends_only() const { return friends_only_; }  // private, and the creator's friends join by id
  const std::string& game_id() const { return game_; }
  // Set when a stored record failed to replay; such a room is not served.
  const std::optional<std::string>& load_error() const { return load_error_; }

  // Posted to the room's strand; replies go straight to the member.
  // `by_invite`: the member named the table by its invite code (a friends-only table then lets anyone in).
  void join(MemberPtr member, std::string name, std::optional<int> seat, Json re, bool by_invite = false);
  void watch(MemberPtr member, Json re, bool by_invite = false);
  // A seated person invites a friend (by account name) to this waiting table (tables/friends.hpp).
  void invite(MemberPtr member, std::string name, Json re);
  void leave(MemberPtr member, Json re);
  void start(MemberPtr member, Json re);
  void add_bot(MemberPtr member, int seat, std::string level, Json re);
  void remove_bot(MemberPtr member, int seat, Json re);
  // During a game: another seated person hands `seat`, whose person has been away long enough, to a bot.
  void replace_absent(MemberPtr member, int seat, Json re);
  // After a restart: the clock runs again (without charging the downtime), and a bot whose decision it is
  // carries on.
  void carry_on();
  // Several nodes (cluster/cluster.hpp): the table leaves this node once the move being stored, if any, is stored.
  // It plays no more, the directory forgets it, `then` runs (the cluster gives its lease up), and every member's
  // connection is closed with "table moved", so that their clients connect again, through the proxy, to the node
  // that holds it.
  void move_away(std::function<void()> then);
  // A finished table brought back from the store: it leaves memory again once nobody is connected to it.
  void expire_when_unwatched();
  // The seat whose token hashes to `token_hash`; `token` is the token itself, for the reply (empty: resumed by a
  // signed-in account, which has no token to send).
  void resume(MemberPtr member, std::string token_hash, std::string token, Json re);
  // The account that claimed the seat of this token's hash was deleted: in a running game a bot takes the seat,
  // renamed `deleted_name`; otherwise nothing changes here (the store renamed it in a finished one).
  // Also a suspended account's (docs/friends.md "Moderation"): then the seat keeps its name (`new_name` none).
  void hand_seat_to_bot(std::string token_hash, std::optional<std::string> new_name);
  void act(MemberPtr member, std::uint64_t version, Json action, Json re,
           std::chrono::steady_clock::time_point received);
  void snapshot(MemberPtr member, Json re);
  // The member's next steps tried on a copy of the game, told to the member alone (docs/undo.md, "Confirm my turn").
  void preview(MemberPtr member, protocol::Preview preview, Json re);
  // ---- room_chat.cpp (docs/friends.md "Chat"): a seated person's line reaches everyone at the table, a spectator's
  // the spectators and the players who chose to read them; nobody reads a line of someone they muted or blocked.
  void chat(MemberPtr member, std::string name, std::string text, Json re);
  void mute(MemberPtr member, std::string name, bool on, Json re);
  void chat_settings(MemberPtr member, protocol::ChatSettings settings, Json re);
  // A signed-in person reports someone at this table: the report keeps the table, the chat around and the public
  // view as they are now (tables/friends.hpp stores it).
  void report(MemberPtr member, protocol::Report report, Json re);
  void disconnected(Member* member);
  // On a finished table, by one of its people: the first call creates the rematch and seats the caller there;
  // later calls take the caller's reserved seat in it. `answered` runs once the reply is on its way (from the
  // rematch, when the caller was passed on to it).
  void rematch(MemberPtr member, Json re, std::function<void()> answered);
  // On a rematch: takes the seat kept for the person whose token at the finished table is `claim` (within the
  // account's correspondence games: `limit_checked` once that was read).
  void claim_reserved(MemberPtr member, int seat, std::string claim, Json re, bool limit_checked = false);
  // The account's vacation started (until then) or ended (none): its seats' clocks here stop or run again, if this
  // table allows vacations (docs/mail.md "Vacation").
  void vacation(std::string account, std::optional<long long> until);
  // my_games: `done` gets the seat the token hashed to `token_hash` holds here (on the room's strand; it must
  // not block). The answer's `token` is that hash: the caller puts the token itself in.
  void describe(std::string token_hash, std::function<void(std::optional<protocol::MyGame>)> done);

  // Runs `f` on the room's strand after every request posted to it before.
  void after_requests(std::function<void()> f);

  // Counted by the directory, under its lock, each time it hands this room out: a finished room leaves memory only
  // if nobody looked it up since it was last seen unwatched (so no request can still be on its way to it).
  void looked_up() { lookups_.fetch_add(1, std::memory_order_relaxed); }
  std::uint64_t lookups() const { return lookups_.load(std::memory_order_relaxed); }

  // The table as the lobby lists it; only on the strand (or before the room is shared).
  protocol::TableInfo info() const;

 private:
  // Requests run on the strand in order; while a write is on its way to the store (a move, or seats) they wait in
  // deferred_, so nobody learns of the change (by a snapshot, a chat after it, the next move) before it is stored.
  template <class F>
  void on_strand(F&& f) {
    net::post(strand_, [self = shared_from_this(), f = std::forward<F>(f)]() mutable {
      if (self->storing_ > 0) {
        self->deferred_.emplace_back(std::move(f));
      } else {
        f();
      }
    });
  }

  // ---- room.cpp: members, snapshots, the table's life in memory
  bool is_spectator(const Member* member) const;
  void reply(const MemberPtr& member, std::string frame) const;
  void broadcast(const std::string& frame) const;
  // `f` for each connected member: the seats' members, then the spectators.
  template <class F>
  void each_member(F&& f) const {
    for (const auto& seat : seats_) {
      if (auto m = seat.member.lock()) f(m);
    }
    for (const auto& w : spectators_) {
      if (auto m = w.lock()) f(m);
    }
  }
  void table_changed();  // tells members and the lobby; re-checks whether the table is abandoned
  // A waiting table where no seated person is connected closes after `abandoned_after` (its creator may have left
  // it behind, or the server restarted): arms the timer when it becomes so, disarms it when someone is back.
  void watch_abandoned();
  // A running casual game of one person and bots whose person has been away `forsaken_after`: their seat passes to
  // a bot, as if they had left, and the bots play it to its end (it would wait for them forever otherwise). Counted
  // from the restart after one, as absence is.
  void watch_forsaken();
  // A finished table nobody is connected to leaves memory after `finished_unwatched_after` (the store keeps it;
  // the directory loads it again for a resume, a watch or a rematch). Memory then follows the tables in use, not
  // every table ever played.
  void watch_unwatched();
  bool anyone_connected() const;
  // The directory stops finding this table by its seats' tokens (it is closed, or leaves memory).
  void forget_tokens();
  // A table that never started closes: out of the store and the directory, and every member is told `left`.
  void close_before_start();
  void send_snapshot(const MemberPtr& member, const Json& re) const;
  // The frames' shuffle fields: the commitment (snapshots), and the seed and salt once the game is over.
  Json shuffle_fields(bool with_commitment) const;
  Json legal_for(int seat) const;
  engine::Viewer viewer_for(int seat) const;
  // The table as the store holds it, without its record.
  StoredTable stored() const;

  // ---- room_store.cpp: the room's writes (a move's go through the commit queue: room_play.cpp), and what
  // follows a failed one. The store is called on its own thread (TablesContext::store_jobs), never on the strand.
  // Runs `write` (which calls the store) there while this room holds back what it is asked, then `done` on the
  // strand with the failure, if any, and then what waited.
  void store_then(std::function<void()> write, std::function<void(const StoreError*)> done);
  // What waited while a write was on its way, in order, until one of them writes in its turn.
  void run_deferred();
  // Stores the seats as they are now, then `saved`. If that fails, `undo` puts memory back and `member` (if any) is
  // refused `re` (`failure` says what could not be done): memory never runs ahead of the store.
  void save_seats_then(MemberPtr member, Json re, const char* failure, std::function<void()> undo,
                       std::function<void()> saved);
  // The error frame for a write the store refused: `store_unavailable` (try again soon), or `internal_error`.
  std::string refusal(const Json& re, const StoreError& error, const char* failure) const;
  // While the room reads itself back (reload), a member's request is refused with `store_unavailable`: true then.
  bool refused_while_reloading(const MemberPtr& member, const Json& re) const;
  // After a move the store did not take (or may have taken: the connection broke), memory may be ahead of the
  // store: the room reads its table back from the store, trying again after `after` while the store does not
  // answer, then shows everyone where the table is.
  void reload(std::chrono::milliseconds after = std::chrono::milliseconds(0));
  void reloaded(const StoredTable& stored);

  // ---- ratings (room_seats.cpp): on a rated table, the people's ratings are read (on the store's thread) when
  // someone sits down, when the table is first watched or resumed after it was loaded, and once its end is stored
  // (then with the update); everyone is then shown the table again.
  void read_ratings();
  // Refuses `re` with rated_needs_account when this table is rated and `member` a guest; true then.
  bool refused_as_guest(const MemberPtr& member, const Json& re) const;
  // ---- friends (room_seats.cpp): nobody sits with someone either of them blocked (blocked_player, cannot_join), and
  // a friends-only table named by its id takes its creator's friends only (friends_only). True when refused.
  bool refused_by_blocks(const MemberPtr& member, const Json& re) const;
  bool refused_as_stranger(const MemberPtr& member, const Json& re, bool by_invite) const;  // friends_only
  // The member's presence: seated here (a waiting or running game), or no longer.
  void tell_seated(const MemberPtr& member, int seat) const;
  void tell_unseated_all() const;  // the game ended, or the table closed

  // ---- room_seats.cpp
  // A correspondence table (its clock gives at least TablesContext::correspondence_turn per move): the seats of an
  // account there are limited (docs/mail.md "Limits"). Immutable facts: callable from any thread.
  bool is_correspondence() const;
  // Runs `then` if the signed-in `member` may take one more correspondence seat, read on the store's thread; else
  // refuses `re` with too_many_games (or store_unavailable).
  // (At once, here, for a guest or a table that is not a correspondence one.)
  void within_game_limit(const MemberPtr& member, const Json& re, std::function<void()> then);
  // join() once the limit is known to allow it.
  void join_now(MemberPtr member, std::string name, std::optional<int> seat, Json re, bool by_invite);
  // Checks that `member` is this waiting table's creator; refuses `re` and returns false otherwise.
  bool creator_before_start(const MemberPtr& member, const Json& re);
  // Tells `member`, who now holds `seat`, and everyone else: the tail of join, resume and claim_reserved.
  // `token`: the seat's token itself, for the reply (the room keeps only its hash); empty when resumed by the
  // account's claim, which is then not written again.
  void welcome_seated(int seat, const MemberPtr& member, const Json& re, const std::string& token,
                      bool reclaimed = false);
  // A bot takes the seat of a running game for good, as when its person leaves; `member` (if any) is told it left.
  void seat_to_bot(int seat, const MemberPtr& member, const Json& re, std::optional<std::string> name = std::nullopt);
  // A signed-in member's chat line, kept for their account's export.
  void keep_for_account(const MemberPtr& member, const std::string& text);
  // A signed-in member's seat becomes their account's (the store's thread records the claim).
  void claim_for_account(const MemberPtr& member, const std::string& token_hash);
  // Seconds the person in `seat` has been disconnected during the game, if they are.
  std::optional<long long> away_seconds(int seat) const;

  // ---- room_play.cpp
  // The start is stored: the clock runs, everyone is told, and a bot whose turn it is thinks.
  void started(const MemberPtr& member, const Json& re);
  // Applies, stores and announces one move by `seat` (a person's `act` or a bot's). The actor's ack goes
  // out after the move is stored and before the events. Returns the refusal, if any (nothing changed).
  // `timed_out`: the normal bot decided for a person whose time ran out.
  // The move is handed to the commit queue; move_stored() follows on the strand.
  std::optional<engine::Error> play(int seat, const Json& action, const MemberPtr& actor, const Json& re,
                                    bool timed_out = false,
                                    std::optional<std::chrono::steady_clock::time_point> received = std::nullopt);
  // A move applied in memory and on its way to the store.
  struct PendingMove {
    int seat = 0;
    MemberPtr actor;  // null for a bot's move
    Json re;
    bool timed_out = false;
    int timeouts = 0;  // the seat's timeouts in a row, with this one
    std::optional<TurnClock> clock_before;
    std::vector<engine::Event> events;
    std::optional<std::chrono::steady_clock::time_point> received;  // a person's act: when it arrived
  };
  // On the strand once the commit queue has written the move (or failed to: then it is undone and refused); then
  // what waited meanwhile runs.
  void move_stored(PendingMove move, std::optional<StoreError::Kind> failed);
  // Ack, events for each viewer, and what follows a move.
  void announce(PendingMove move);

  // ---- room_bots.cpp
  // If a bot is to move, or a person's time has run out, and no bot is thinking yet, hands the seat's view to
  // the bot workers.
  void run_bot_if_its_turn();
  void bot_decided(int seat, std::uint64_t version, Json action, bool timed_out);

  // ---- room_clock.cpp: turn clocks (timed tables)
  // After any change to the seats or the game: puts the person whose decision it is on the clock (nobody when it
  // is a bot's or the game is over) and sets the timer for their deadline.
  void update_clock();
  void save_clock();
  Json live_clock() const;  // the frames' "clock" field; null on an untimed or unstarted table
  // After three timeouts in a row the normal bot plays the seat until its person resumes it.
  void hand_to_bot_after_timeouts(int seat);
  // Vacations (docs/mail.md): on a correspondence clock that allows them, the decision of a person on vacation is
  // paused until the vacation ends (a timer set by update_clock), and everyone sees until when.
  bool vacations_apply() const;
  bool on_vacation(int seat) const;
  // Reads the seats' accounts' vacations (on the store's thread), then shows them: after a load and at the start.
  void read_vacations();
  void vacations_changed();  // the clock, the store's copy of it, and everyone told
  void watch_vacations();    // the timer for the first end of a vacation at the table

  // ---- room_rematch.cpp
  // A new table for a rematch offered by `offerer`: same game, seats and settings (see rematch()).
  StoredTable rematch_table(int offerer, const std::string& offerer_token, const std::string& offerer_account) const;
  // rematch()'s two cases, on the strand: the first offer, and a seat at the one offered.
  void offer_rematch(MemberPtr member, int seat, Json re, std::function<void()> answered);
  void join_rematch(MemberPtr member, int seat, Json re, std::function<void()> answered);

  net::strand<net::any_io_executor> strand_;
  const TablesContext& context_;  // the server's, which outlives every room
  const std::string id_;
  const std::string game_;
  const std::string invite_;
  const bool is_private_;
  const bool friends_only_;
  const engine::Seed seed_;
  const std::string salt_;        // empty on tables from before commitments
  const std::string commitment_;  // SHA-256(salt || seed), published from the start; empty without a salt
  const Json options_;
  const std::string rematch_of_;  // empty unless this table is a rematch
  const std::uint64_t epoch_;     // several nodes: this node's lease on the table (StoredTable::epoch); else 0
  const bool rated_;              // its end updates its people's ratings (docs/ratings.md)
  const bool undo_;               // its players may take back a step (docs/undo.md)
  int creator_seat_ = 0;
  TableState state_ = TableState::waiting;
  Seats seats_;
  std::vector<std::weak_ptr<Member>> spectators_;
  std::unique_ptr<engine::State> game_state_;
  std::optional<std::string> load_error_;
  int storing_ = 0;  // writes (a move, seats, the clock) on their way to the store
  std::deque<std::function<void()>> deferred_;  // asked while storing_, in order
  bool reloading_ = false;                       // reload(): memory may be ahead of the store
  bool bot_thinking_ = false;  // at most one pending bot decision per table
  net::steady_timer bot_pause_;
  std::chrono::steady_clock::time_point last_move_{};
  const std::optional<protocol::ClockConfig> clock_config_;
  std::optional<TurnClock> clock_;  // once a timed game has started
  std::vector<TurnClock> clock_before_steps_;  // the clock before each step the engine may still take back
  net::steady_timer clock_timer_;
  std::uint64_t clock_generation_ = 0;  // a timer callback from before the last update_clock is stale
  net::steady_timer vacation_timer_;    // the end of the first vacation of a seat here (update_clock)
  ConditionTimer abandoned_timer_;  // a waiting table with nobody connected
  ConditionTimer forsaken_timer_;   // a game of one person and bots, the person away
  ConditionTimer unwatched_timer_;  // a finished table with nobody connected
  net::steady_timer reload_timer_;  // reload(): the next try
  bool moved_away_ = false;         // move_away: this node serves the table no more
  std::atomic<std::uint64_t> lookups_{0};
  long long updated_ = 0;  // unix seconds of the last stored change
  std::optional<protocol::RematchOffer> rematch_;
  // A rated table's: the rating update of its end once stored and read back, and whether the seats' ratings were
  // read since the room was made.
  std::vector<protocol::RatingChange> rating_changes_;
  bool ratings_read_ = false;

  // ---- room_notices.cpp: people away from the table (docs/mail.md)
  // After any change to the seats, their connections or the game: tells the notices whose decision waits on a
  // signed-in person who is not at the table, and when that stops; at the end, the game's result.
  // `moved`: the seat that just moved, whose next decision (even one that follows at once) is a new wait;
  // `movers`: the engine's to_move(), when the caller has it already.
  void watch_turns(std::optional<int> moved = std::nullopt, const std::vector<int>* movers = nullptr);
  void tell_game_over() const;
  // On a correspondence clock (TablesContext::correspondence_turn), the notices are told when an away person's
  // running decision is down to a fifth of its turn time: a timer set with the clock's (update_clock).
  void watch_low_clock();
  TurnWaiting waiting_of(int seat) const;  // what the notices are told of a seat's decision
  net::steady_timer low_clock_timer_;
  // Per seat: the version at which its current decision began (after its own last move), and the one last told
  // as waiting. In memory: after a restart a wait begins again at the version the room was restored at.
  std::vector<std::optional<std::uint64_t>> turn_since_, told_waiting_;

  // ---- room_chat.cpp
  struct KeptLine {
    protocol::ChatLine line;
    std::string account;  // its writer's, if signed in
  };
  static constexpr std::size_t kChatKept = 100;  // the newest lines a table keeps for those who come (in memory)
  std::deque<KeptLine> chat_;
  std::uint64_t chat_written_ = 0;  // lines written here: the next line's id
  bool spectators_may_chat_ = true;
  std::map<const Member*, std::set<std::string>> muted_;  // each member's muted names
  std::set<const Member*> reading_spectators_;            // players who read the spectators' lines
  bool reads(const MemberPtr& member, const KeptLine& line) const;
  void send_chat_history(const MemberPtr& member) const;
  void forget_chat_settings(const Member* member);  // it left or disconnected
};

}  // namespace emporium::server
