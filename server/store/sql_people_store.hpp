#pragma once
// The people store (people_store.hpp) in SQL written once for both dialects (sql_connection.hpp): SqlPeopleStore makes
// every call, SqlitePeopleStore and PostgresPeopleStore only open its connection. Each has a connection of its own
// to the game store's database, so that account traffic never waits for the moves' connection or its mutex; its
// tables are made by the schema's version 2 (schema.cpp), applied by whichever store opens first.
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "store/people_store.hpp"
#include "store/pg_connection.hpp"
#include "store/sql_connection.hpp"
#include "store/sqlite_connection.hpp"

namespace emporium::server {

class SqlPeopleStore : public PeopleStore {
 public:
  bool create_account(const AccountRow& account, const std::optional<PasskeyRow>& first_passkey) override;
  std::optional<AccountRow> account(const std::string& id) override;
  std::optional<AccountRow> account_by_name_key(const std::string& name_key) override;
  void set_password(const std::string& account, const std::string& hash) override;

  bool add_passkey(const PasskeyRow& passkey) override;
  std::optional<PasskeyRow> passkey(const std::string& id) override;
  std::vector<PasskeyRow> passkeys_of(const std::string& account) override;
  bool use_passkey(const std::string& id, std::uint32_t old_count, std::uint32_t new_count, long long at) override;
  bool rename_passkey(const std::string& account, const std::string& id, const std::string& label) override;
  Removal remove_passkey(const std::string& account, const std::string& id) override;

  void create_session(const SessionRow& session) override;
  std::optional<SessionRow> session(const std::string& id_hash) override;
  void touch_session(const std::string& id_hash, long long last_seen, long long expires_at) override;
  bool delete_session(const std::string& id_hash) override;
  bool delete_session_by_public_id(const std::string& account, const std::string& public_id) override;
  std::size_t delete_sessions_of(const std::string& account) override;
  std::vector<std::string> delete_sessions_but(const std::string& account, const std::string& kept) override;
  std::vector<SessionRow> sessions_of(const std::string& account, long long now) override;

  void record_sign_in(const SignInRow& sign_in) override;
  std::vector<SignInRow> sign_ins_of(const std::string& account, std::size_t limit) override;
  std::size_t failures_since(const std::string& account, long long since) override;
  std::size_t failures_from(const std::string& address, long long since) override;

  void put_challenge(const ChallengeRow& challenge) override;
  std::optional<ChallengeRow> take_challenge(const std::string& challenge, long long now) override;

  std::vector<ClaimRow> claim_seats(const std::string& account, const std::vector<std::string>& token_hashes,
                                    long long now) override;
  std::vector<ClaimRow> claims_of(const std::string& account) override;
  std::optional<std::string> account_of_seat(const std::string& token_hash) override;
  std::optional<ClaimRow> claim_at(const std::string& account, const std::string& table_id) override;
  std::vector<ClaimedTable> claimed_tables(const std::string& account, std::size_t limit) override;

  void record_chat(const ChatRow& line) override;
  std::vector<ChatRow> chat_of(const std::string& account) override;

  std::vector<RatingRow> ratings_of(const std::vector<std::string>& accounts, const std::string& game) override;
  std::vector<RatingRow> ratings_of_account(const std::string& account) override;
  std::vector<RatingUpdateRow> rating_updates_of_table(const std::string& table) override;
  std::vector<RatingUpdateRow> rating_updates_of(const std::string& account, bool with_private) override;
  std::vector<GameResultRow> results_of(const std::string& account, bool with_private, std::size_t limit) override;
  std::vector<ResultCounts> result_counts(const std::string& account, bool with_private) override;
  std::vector<LeaderboardRow> leaderboard(const std::string& game, long long min_games, std::size_t limit) override;
  std::optional<LeaderboardRow> leaderboard_place(const std::string& game, long long min_games,
                                                  const std::string& account) override;

  std::vector<RelationRow> relations_of(const std::string& account) override;
  std::vector<std::string> blocked_by(const std::string& account) override;
  FriendRequest request_friend(const std::string& from, const std::string& to, long long at) override;
  bool accept_friend(const std::string& account, const std::string& from, long long at) override;
  bool delete_friend_request(const std::string& from, const std::string& to) override;
  bool remove_friend(const std::string& account, const std::string& other) override;
  bool block(const std::string& account, const std::string& other, long long at) override;
  bool unblock(const std::string& account, const std::string& other) override;
  void set_presence(const PresenceRow& row) override;
  void clear_presence(const std::string& account, const std::string& node, long long at) override;
  void clear_node_presence(const std::string& node) override;
  std::vector<FriendPresence> presence_of(const std::vector<std::string>& accounts) override;
  bool add_invitation(const InvitationRow& invitation) override;
  std::vector<InvitationRow> invitations_of(const std::string& account) override;
  std::optional<std::string> take_invitation(const std::string& table_id, const std::string& account) override;

  bool set_role(const std::string& account, const std::string& role) override;
  std::vector<AccountRow> accounts_with_role(const std::string& role) override;
  void add_report(const ReportRow& report) override;
  std::vector<ReportRow> open_reports(std::size_t limit) override;
  std::optional<ReportRow> open_report(const std::string& id) override;
  bool moderate(const ModerationRow& action) override;
  std::vector<ModerationRow> moderation_of(const std::string& account) override;

  GameLoad game_load(const std::string& account, int correspondence_turn_s) override;
  std::optional<MailSettingsRow> mail_settings(const std::string& account) override;
  void put_mail_settings(const MailSettingsRow& settings) override;
  bool confirm_mail_address(const std::string& account, const std::string& address, long long at) override;
  bool mark_mail_sent(const std::string& account, const std::string& table_id, const std::string& kind, long long mark,
                      long long at) override;
  std::string server_key(const std::string& name, const std::string& fresh, long long at) override;
  std::vector<VacationRow> vacations_of(const std::string& account, long long since) override;
  bool start_vacation(const VacationRow& vacation) override;
  bool end_vacation(const std::string& account, long long at) override;
  std::map<std::string, long long> vacations_until(const std::vector<std::string>& accounts, long long now) override;
  void add_push_subscription(const PushSubscriptionRow& s, std::size_t keep) override;
  bool remove_push_subscription(const std::string& endpoint, const std::string& account) override;
  std::vector<PushSubscriptionRow> push_subscriptions(const std::string& account) override;

  void delete_account(const std::string& account, const std::string& deleted_name) override;
  std::size_t delete_expired(long long now) override;

 protected:
  // The connection the dialect's store opened; used with the mutex held.
  virtual SqlConnection& sql() = 0;

 private:
  // One statement on its own (it takes the mutex).
  std::vector<SqlRow> run(const std::string& statement, const std::vector<SqlValue>& params);
  // `body` in one transaction (it takes the mutex).
  void in_transaction(const std::function<void(SqlConnection& db)>& body);

  std::mutex mutex_;
};

class SqlitePeopleStore final : public SqlPeopleStore {
 public:
  // Opens (creating if needed) <data_dir>/emporium.db as the game store does. Throws StoreError.
  explicit SqlitePeopleStore(const std::string& data_dir);
  ~SqlitePeopleStore() override;
  SqlitePeopleStore(const SqlitePeopleStore&) = delete;
  SqlitePeopleStore& operator=(const SqlitePeopleStore&) = delete;

 protected:
  SqlConnection& sql() override { return connection_; }

 private:
  sqlite3* db_;
  SqliteConnection connection_{db_};
};

class PostgresPeopleStore final : public SqlPeopleStore {
 public:
  // Connects to `uri` (a libpq connection URI); a lost connection is opened again on the next call. Throws
  // StoreError.
  explicit PostgresPeopleStore(const std::string& uri);

 protected:
  SqlConnection& sql() override { return connection_; }

 private:
  PgConnection db_;
  PgSqlConnection connection_{db_};
};

}  // namespace emporium::server
