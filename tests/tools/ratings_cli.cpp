// The rating model for the oracle test (tests/tools/ratings_oracle.mjs): reads one game per line on stdin,
//   {"players": [[mu, sigma], ...], "ranks": [r, ...]}
// and writes one line per game on stdout, the new ratings in the same order with every digit of a double,
//   {"players": [[mu, sigma], ...]}   or, when the model refuses the game,   {"error": "..."}
// Test-only: no part of the server.
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ratings/ratings.hpp"

int main() {
  namespace ratings = emporium::server::ratings;
  std::ios::sync_with_stdio(false);
  std::string line;
  int line_number = 0;
  while (std::getline(std::cin, line)) {
    ++line_number;
    if (line.empty()) continue;
    nlohmann::json out;
    try {
      const auto game = nlohmann::json::parse(line);
      std::vector<ratings::Rating> players;
      for (const auto& p : game.at("players")) players.push_back({p.at(0).get<double>(), p.at(1).get<double>()});
      const auto ranks = game.at("ranks").get<std::vector<int>>();
      out["players"] = nlohmann::json::array();
      for (const auto& r : ratings::rate(players, ranks)) out["players"].push_back({r.mu, r.sigma});
    } catch (const std::invalid_argument& e) {
      out = {{"error", e.what()}};
    } catch (const nlohmann::json::exception& e) {
      std::cerr << "ratings_cli: line " << line_number << " is not a game: " << e.what() << "\n";
      return 2;
    }
    std::cout << out.dump() << "\n";
  }
  return 0;
}
