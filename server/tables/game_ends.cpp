#include "tables/game_ends.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <vector>

#include "ratings/bot_ratings.hpp"

namespace emporium::server {
protocol::SeatRating seat_rating(const ratings::Rating& rating, bool bot) {
  return {ratings::displayed_rating(rating), !bot && ratings::is_provisional(rating), bot};
}

std::shared_ptr<const GameEnd> game_end_of(const std::string& table, const std::string& game, const Seats& seats,
                                           const nlohmann::json& result, bool rated, bool is_private) {
  if (std::none_of(seats.begin(), seats.end(), [](const Seat& s) { return !s.account.empty(); })) return nullptr;
  auto end = std::make_shared<GameEnd>();
  end->game = game;
  end->players = static_cast<int>(seats.size());
  end->rated = rated;
  end->is_private = is_private;
  end->seats.resize(seats.size());
  const auto ranking = result.is_object() ? result.value("ranking", nlohmann::json()) : nlohmann::json();
  if (ranking.is_array()) {
    for (const auto& r : ranking) {
      const auto player = r.value("player", -1);
      if (seats.has(player)) end->seats[static_cast<std::size_t>(player)].rank = r.value("rank", 0);
    }
  }
  int worst = 0;
  for (std::size_t i = 0; i < seats.size(); ++i) {
    auto& s = end->seats[i];
    const auto& seat = seats[i];
    s.seat = static_cast<int>(i);
    if (!ranking.is_array() || s.rank < 1) {
      spdlog::error("table {}: the result of {} ranks no player {}: nothing is kept for its accounts", table, game, i);
      return nullptr;
    }
    if (seat.stand_in == StandIn::left || seat.stand_in == StandIn::timeout) {
      s.left_by = name_of(seat.stand_in);
    } else {
      worst = std::max(worst, s.rank);
    }
    if (seat.bot && seat.stand_in == StandIn::none) {
      s.bot = engine::bot::level_name(*seat.bot);
      // A level without a published rating plays at a new player's (none so far: bot_ratings.cpp).
      const auto fixed = ratings::bot_rating(game, s.bot).value_or(ratings::initial_rating());
      s.bot_mu = fixed.mu;
      s.bot_sigma = fixed.sigma;
    } else {
      s.account = seat.account;
    }
  }
  for (auto& s : end->seats) {
    if (!s.left_by.empty()) s.rank = worst + 1;  // after everyone who played on, tied among themselves
  }
  return end;
}

}  // namespace emporium::server
