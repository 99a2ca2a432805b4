// Fills a data directory with unfinished tables, for measuring how long a restart takes to bring them back:
//   stored_tables <data-dir> [--tables N] [--moves M] [--game silkroad] [--players 3] [--accounts-mailed D]
// Each table is a game of `players` people (seat tokens of its own), `M` random legal moves in (fewer if the
// game ends sooner: then it stops one move before the end), written through the server's own store.
// --accounts-mailed D: the seat to move at each table is an account's, one account per table ("Mailed <n>",
// mailed-<n>@example.org confirmed, "your turn" after D minutes), so that a restart with --smtp-url mails every one
// of them once (bench/mail_burst.sh). Its other seats stay guests', who are never mailed.
// --finished IDS_FILE: instead, every game is played to its end by easy bots (M is ignored) and the table stored
// finished, its id written to IDS_FILE, one a line: finished games to analyse (bench/analysis_load.sh).
#include <cstdint>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <emporium/engine/bot.hpp>
#include <emporium/engine/registry.hpp>
#include <emporium/engine/rng.hpp>
#include <emporium/protocol/accounts.hpp>

#include "common/secrets.hpp"
#include "common/wall_clock.hpp"
#include "store/sql_people_store.hpp"
#include "store/sqlite_store.hpp"

using namespace emporium;

namespace {

// A new account with a confirmed address (entered, then confirmed, as the account page does) that wants
// "your turn" after `delay_minutes`; returns its id.
std::string mailed_account(server::PeopleStore& people, int n, int delay_minutes) {
  const std::string name = "Mailed " + std::to_string(n);
  const server::AccountRow account{server::random_token(12), name, protocol::accounts::name_key(name), "",
                                   server::unix_now()};
  if (!people.create_account(account, std::nullopt)) throw std::runtime_error(name + " exists already");
  server::MailSettingsRow settings{.account = account.id, .pending = "mailed-" + std::to_string(n) + "@example.org"};
  settings.your_turn = true;
  settings.turn_delay_minutes = delay_minutes;
  settings.updated_at = server::unix_now();
  people.put_mail_settings(settings);
  if (!people.confirm_mail_address(account.id, settings.pending, server::unix_now())) {
    throw std::runtime_error(name + ": its address was not confirmed");
  }
  return account.id;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: stored_tables <data-dir> [--tables N] [--moves M] [--game G] [--players P] "
                 "[--accounts-mailed DELAY_MINUTES] [--finished IDS_FILE]\n";
    return 2;
  }
  int tables = 10000, moves = 30, players = 3;
  std::optional<int> mailed_delay;
  std::optional<std::string> finished_ids;
  std::string game = "silkroad";
  for (int i = 2; i < argc; i += 2) {
    const std::string flag = argv[i];
    if (i + 1 == argc) { std::cerr << flag << " needs a value\n"; return 2; }
    const std::string value = argv[i + 1];
    if (flag == "--tables") tables = std::stoi(value);
    else if (flag == "--moves") moves = std::stoi(value);
    else if (flag == "--game") game = value;
    else if (flag == "--players") players = std::stoi(value);
    else if (flag == "--accounts-mailed") mailed_delay = std::stoi(value);
    else if (flag == "--finished") finished_ids = value;
    else { std::cerr << "unknown flag " << flag << "\n"; return 2; }
  }
  if (mailed_delay && (*mailed_delay < 0 || *mailed_delay > 720)) {
    std::cerr << "--accounts-mailed takes a delay of 0 to 720 minutes\n";
    return 2;
  }
  server::SqliteStore db(argv[1]);  // first: it brings the schema up to date
  std::optional<server::SqlitePeopleStore> people;
  if (mailed_delay) people.emplace(argv[1]);
  std::ofstream ids;
  if (finished_ids) ids.open(*finished_ids);
  engine::Rng rng(1);
  for (int t = 0; t < tables; ++t) {
    server::StoredTable stored;
    stored.id = server::new_table_id();
    stored.game = game;
    stored.players = players;
    stored.seed = server::new_game_seed();
    stored.salt = server::new_salt();
    stored.state = server::TableState::playing;
    for (int s = 0; s < players; ++s) {
      stored.seats.push_back({.seat = s,
                              .name = "Player " + std::to_string(s + 1),
                              .token_hash = server::hash_token(server::new_seat_token())});
    }
    auto created = engine::create_game(game, players, nlohmann::json::object(), stored.seed);
    if (created.error) { std::cerr << created.error->message << "\n"; return 1; }
    stored.options = created.options;
    // The moves first, so that the seat to move is known when the table is written.
    auto& state = *created.state;
    struct Played {
      std::uint64_t index;
      int player;
      nlohmann::json action;
    };
    std::vector<Played> played;
    for (int m = 0; finished_ids ? !state.is_over() : m < moves; ++m) {
      const int p = state.to_move().at(0);
      const auto legal = state.legal_actions(p);
      const auto action = finished_ids ? engine::bot::decide(game, state.view(engine::Viewer::of_player(p)), p, legal,
                                                             engine::bot::Level::easy, rng.next())
                                             .action
                                       : legal[rng.below(legal.size())];
      auto copy = state.clone();
      if (!copy->apply(p, action).ok() || (copy->is_over() && !finished_ids)) break;  // stays unfinished
      state.apply(p, action);
      played.push_back({state.version() - 1, p, action});
    }
    if (people) {
      auto& seat = stored.seats.at(static_cast<std::size_t>(state.to_move().at(0)));
      seat.account = mailed_account(*people, t + 1, *mailed_delay);
      seat.name = "Mailed " + std::to_string(t + 1);
    }
    db.create_table(stored);
    for (const auto& move : played) db.append_action(stored.id, move.index, move.player, move.action);
    if (finished_ids) {
      db.set_state(stored.id, server::TableState::finished, state.result());
      ids << stored.id << "\n";
    }
  }
  std::cout << tables << (finished_ids ? " finished " : " unfinished ") << game << " tables written to " << argv[1]
            << (people ? " (the seat to move at each an account's, mailed)" : "") << "\n";
}
