#include "store/game_end.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <exception>
#include <set>
#include <utility>
#include <vector>

#include "ratings/ratings.hpp"

namespace emporium::server {

std::string exact_text(double value) {
  char text[32];
  const auto [end, error] = std::to_chars(text, text + sizeof text, value);
  return std::string(text, error == std::errc() ? end : text);
}

double exact_value(const std::string& text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) throw StoreError("a stored rating is not a number");
  return value;
}

namespace {

// A person's seat to rate and their rating before the game.
struct Rated {
  const GameEndSeat* seat;
  double mu = 0, sigma = 0;
  long long games = 0;
};

void rate(SqlConnection& db, const std::string& table, const GameEnd& end, std::vector<Rated>& people, long long now) {
  const bool pg = db.dialect() == Dialect::postgresql;
  const auto initial = ratings::initial_rating();
  // Read in the accounts' order (people is sorted by account): two transactions lock the rows they share in the
  // same order, so neither waits for the other in a circle.
  for (auto& p : people) {
    db.rows("INSERT INTO ratings (account, game, mu, sigma, displayed, provisional, games, updated_at) "
            "VALUES ($1, $2, $3, $4, $5, $6, 0, $7) ON CONFLICT (account, game) DO NOTHING",
            {p.seat->account, end.game, exact_text(initial.mu), exact_text(initial.sigma),
             static_cast<long long>(ratings::displayed_rating(initial)), ratings::is_provisional(initial) ? 1LL : 0LL,
             now});
    const auto row = db.rows(std::string("SELECT mu, sigma, games FROM ratings WHERE account = $1 AND game = $2") +
                                 (pg ? " FOR UPDATE" : ""),
                             {p.seat->account, end.game});
    p.mu = exact_value(row.at(0).text(0));
    p.sigma = exact_value(row.at(0).text(1));
    p.games = row.at(0).integer(2);
  }
  // Everyone at the table, in seat order: the people at their ratings, the bots at their fixed ones.
  std::vector<ratings::Rating> before;
  std::vector<int> ranks;
  std::vector<Rated*> person_at;  // per entry: the person, or null for a bot
  for (const auto& s : end.seats) {
    Rated* person = nullptr;
    if (s.bot.empty()) {
      const auto it = std::find_if(people.begin(), people.end(), [&](const Rated& p) { return p.seat == &s; });
      if (it == people.end()) continue;  // a second seat of an account already rated
      person = &*it;
    }
    before.push_back(person ? ratings::Rating{person->mu, person->sigma} : ratings::Rating{s.bot_mu, s.bot_sigma});
    ranks.push_back(s.rank);
    person_at.push_back(person);
  }
  std::vector<ratings::Rating> after;
  try {
    after = ratings::rate(before, ranks);
  } catch (const std::exception& e) {
    spdlog::error("table {}: the rating model refused the game ({}): no rating update", table, e.what());
    return;
  }
  for (std::size_t i = 0; i < person_at.size(); ++i) {
    const Rated* p = person_at[i];
    if (!p) continue;  // bots are not updated
    const auto [mu, sigma] = after[i];
    const long long shown_before = ratings::displayed_rating({p->mu, p->sigma});
    const long long shown_after = ratings::displayed_rating(after[i]);
    db.rows("INSERT INTO rating_updates (table_id, account, game, seat, rank, mu_before, sigma_before, mu_after, "
            "sigma_after, displayed_before, displayed_after, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
            {table, p->seat->account, end.game, static_cast<long long>(p->seat->seat),
             static_cast<long long>(p->seat->rank), exact_text(p->mu), exact_text(p->sigma), exact_text(mu),
             exact_text(sigma), shown_before, shown_after, now});
    db.rows("UPDATE ratings SET mu = $3, sigma = $4, displayed = $5, provisional = $6, games = $7, updated_at = $8 "
            "WHERE account = $1 AND game = $2",
            {p->seat->account, end.game, exact_text(mu), exact_text(sigma), shown_after,
             ratings::is_provisional(after[i]) ? 1LL : 0LL, p->games + 1, now});
  }
}

}  // namespace

void store_game_end(SqlConnection& db, const std::string& table, const GameEnd& end, long long now) {
  const bool pg = db.dialect() == Dialect::postgresql;
  // The people's seats, one per account (should someone hold two seats at a table, the first counts), whose
  // account still exists: locked on PostgreSQL, so that the account is not deleted before this commits.
  std::vector<const GameEndSeat*> seats;
  std::set<std::string> accounts;
  bool unaccounted = false;  // a person's seat whose account is unknown (a guest's, or deleted)
  for (const auto& s : end.seats) {
    if (!s.bot.empty()) continue;
    if (s.account.empty()) {
      unaccounted = true;
    } else if (accounts.insert(s.account).second) {
      seats.push_back(&s);
    } else {
      spdlog::warn("table {}: an account held two seats; only seat {}'s counts", table, s.seat);
    }
  }
  std::sort(seats.begin(), seats.end(), [](const auto* a, const auto* b) { return a->account < b->account; });
  std::vector<Rated> people;
  for (const auto* s : seats) {
    if (db.rows(std::string("SELECT id FROM accounts WHERE id = $1") + (pg ? " FOR SHARE" : ""), {s->account}).empty()) {
      unaccounted = true;
      continue;
    }
    people.push_back({s});
    db.rows("INSERT INTO game_results (table_id, account, game, seat, rank, players, rated, private, left_by, "
            "finished_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            {table, s->account, end.game, static_cast<long long>(s->seat), static_cast<long long>(s->rank),
             static_cast<long long>(end.players), end.rated ? 1LL : 0LL, end.is_private ? 1LL : 0LL,
             text_or_null(s->left_by), now});
  }
  if (!end.rated) return;
  const auto bots = std::count_if(end.seats.begin(), end.seats.end(), [](const auto& s) { return !s.bot.empty(); });
  if (unaccounted) {
    spdlog::warn("table {}: a person's seat at the rated game has no account: no rating update", table);
  } else if (people.empty() || people.size() + static_cast<std::size_t>(bots) < 2) {
    spdlog::warn("table {}: fewer than two players to rate: no rating update", table);
  } else {
    rate(db, table, end, people, now);
  }
}

}  // namespace emporium::server
