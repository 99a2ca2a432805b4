#include "tables/seats.hpp"

#include <algorithm>
#include <cctype>

#include "common/secrets.hpp"

namespace emporium::server {

Seats Seats::from_stored(int players, const std::vector<StoredSeat>& stored,
                         std::chrono::steady_clock::time_point now) {
  Seats out(static_cast<std::size_t>(players));
  for (const auto& s : stored) {
    if (!out.has(s.seat)) continue;
    auto& seat = out[s.seat];
    seat = {s.name, s.token_hash, {}, engine::bot::level_from_name(s.bot), s.stand_in, std::nullopt, s.reserved_for,
            s.account};
    if (seat.is_person()) seat.away_since = now;
  }
  return out;
}

int Seats::of(const Member* member) const {
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    if (seats_[i].member.lock().get() == member) return static_cast<int>(i);
  }
  return -1;
}

int Seats::of_token(const std::string& token_hash) const {
  const auto it = std::find_if(seats_.begin(), seats_.end(),
                               [&](const Seat& s) { return same_hash(s.token_hash, token_hash); });
  return it == seats_.end() ? -1 : static_cast<int>(it - seats_.begin());
}

int Seats::seated() const {
  return static_cast<int>(std::count_if(seats_.begin(), seats_.end(), [](const Seat& s) { return s.occupied(); }));
}

int Seats::first_person() const {
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    if (seats_[i].is_person()) return static_cast<int>(i);
  }
  return -1;
}

int Seats::first_free() const {
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    if (!seats_[i].taken()) return static_cast<int>(i);
  }
  return -1;
}

bool Seats::any_bot() const {
  return std::any_of(seats_.begin(), seats_.end(), [](const Seat& s) { return s.bot.has_value(); });
}

bool Seats::any_person_connected() const {
  return std::any_of(seats_.begin(), seats_.end(), [](const Seat& s) { return s.is_person() && s.connected(); });
}

bool Seats::any_connected() const {
  return std::any_of(seats_.begin(), seats_.end(), [](const Seat& s) { return s.connected(); });
}

std::string Seats::unique_name(const std::string& name) const {
  auto folded = [](std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  auto taken = [&](const std::string& candidate) {
    return std::any_of(seats_.begin(), seats_.end(),
                       [&](const Seat& s) { return s.taken() && folded(s.name) == folded(candidate); });
  };
  std::string out = name;
  for (int n = 2; taken(out); ++n) out = name + " (" + std::to_string(n) + ")";
  return out;
}

std::string Seats::next_bot_name() const {
  int number = 1;
  while (std::any_of(seats_.begin(), seats_.end(),
                     [&](const Seat& s) { return s.bot && s.name == "Bot " + std::to_string(number); })) {
    ++number;
  }
  return "Bot " + std::to_string(number);
}

std::vector<StoredSeat> Seats::stored() const {
  std::vector<StoredSeat> out;
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    const auto& s = seats_[i];
    if (!s.taken()) continue;
    out.push_back({static_cast<int>(i), s.name, s.token_hash, s.bot ? engine::bot::level_name(*s.bot) : "",
                   s.bot ? s.stand_in : StandIn::none, s.reserved_for, s.account});
  }
  return out;
}

Seats::Renumbered Seats::without_empty(int creator) const {
  Renumbered out;
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    if (!seats_[i].occupied()) continue;
    if (static_cast<int>(i) == creator) out.creator = static_cast<int>(out.seats.size());
    out.seats.seats_.push_back(seats_[i]);
  }
  return out;
}

}  // namespace emporium::server
