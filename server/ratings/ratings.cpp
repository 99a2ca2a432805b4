#include "ratings/ratings.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <stdexcept>
#include <string>

// Weng & Lin (2011), Algorithm 4 (Plackett–Luce), for k teams of one player each, in openskill 5.0.1's order of
// operations (src/rate.ts, src/models/plackett-luce.ts, src/util.ts), so that the results agree to the last few
// bits. The paper's notation: team i has skill mean mu_i and variance sigma_i², r(i) is its rank (smaller is
// better). With one player per team, the paper's player update "sigma_ij² / sigma_i²" factor is 1.

namespace emporium::server::ratings {

namespace {

constexpr double kMaxMu = 1000.0;     // exp(mu / c) stays far from overflowing (c >= beta * sqrt(2))
constexpr double kMaxSigma = 1000.0;

void check(std::span<const Rating> players, std::span<const int> ranks) {
  const auto n = players.size();
  if (n < static_cast<std::size_t>(kMinPlayers) || n > static_cast<std::size_t>(kMaxPlayers)) {
    throw std::invalid_argument("a rated game has 2 to 6 players, not " + std::to_string(n));
  }
  if (ranks.size() != players.size()) {
    throw std::invalid_argument("a rated game needs one rank per player");
  }
  for (const Rating& p : players) {
    if (!std::isfinite(p.mu) || std::abs(p.mu) > kMaxMu) throw std::invalid_argument("a rating's mu is out of range");
    if (!std::isfinite(p.sigma) || !(p.sigma > 0) || p.sigma > kMaxSigma) {
      throw std::invalid_argument("a rating's sigma is out of range");
    }
  }
}

}  // namespace

Rating initial_rating(const Parameters& parameters) { return {parameters.mu, parameters.sigma}; }

std::vector<Rating> rate(std::span<const Rating> players, std::span<const int> ranks, const Parameters& parameters) {
  check(players, ranks);
  const std::size_t k = players.size();

  // The dynamics: every sigma grows by tau before the game (openskill's rate: sigma' = sqrt(sigma² + tau²)).
  std::vector<Rating> prior(players.begin(), players.end());
  for (Rating& p : prior) p.sigma = std::sqrt(p.sigma * p.sigma + parameters.tau * parameters.tau);

  // The teams in order of rank, ties in their given order (a stable sort, as sort-unwind's Array.prototype.sort).
  std::vector<std::size_t> order(k);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return ranks[a] < ranks[b]; });
  std::vector<double> mu(k), sigma_sq(k);
  std::vector<std::size_t> rank(k);  // r(i): the position of the first team of i's tie group, in rank order
  for (std::size_t j = 0; j < k; ++j) {
    mu[j] = prior[order[j]].mu;  // a team's mu_i: the sum over its players, here one
    sigma_sq[j] = prior[order[j]].sigma * prior[order[j]].sigma;  // sigma_i²
    rank[j] = (j > 0 && ranks[order[j - 1]] == ranks[order[j]]) ? rank[j - 1] : j;
  }

  // c = (sum_i (sigma_i² + beta²))^(1/2)
  const double beta_sq = parameters.beta * parameters.beta;
  double c_sq = 0;
  for (std::size_t i = 0; i < k; ++i) c_sq += sigma_sq[i] + beta_sq;
  const double c = std::sqrt(c_sq);
  // C_q = sum over s with r(s) >= r(q) of e^(mu_s / c);  A_q = |{s : r(s) = r(q)}|, the ties of q
  std::vector<double> sum_q(k, 0.0);
  std::vector<double> a(k, 0.0);
  for (std::size_t q = 0; q < k; ++q) {
    for (std::size_t s = 0; s < k; ++s) {
      if (rank[s] >= rank[q]) sum_q[q] += std::exp(mu[s] / c);
      if (rank[s] == rank[q]) a[q] += 1;
    }
  }

  std::vector<Rating> updated(k);
  for (std::size_t i = 0; i < k; ++i) {
    // Omega_i = (sigma_i² / c) sum_{q: r(q) <= r(i)} (1 / A_q) (delta_qi - e^(mu_i/c) / C_q), delta_qi = [q = i]
    // Delta_i = gamma_i (sigma_i² / c²) sum_{q: r(q) <= r(i)} (1 / A_q) (e^(mu_i/c) / C_q) (1 - e^(mu_i/c) / C_q)
    const double e_i = std::exp(mu[i] / c);
    double omega_sum = 0;
    double delta_sum = 0;
    for (std::size_t q = 0; q < k; ++q) {
      if (rank[q] > rank[i]) continue;
      const double quotient = e_i / sum_q[q];
      omega_sum += (i == q ? 1 - quotient : -quotient) / a[q];
      delta_sum += quotient * (1 - quotient) / a[q];
    }
    const double gamma = std::sqrt(sigma_sq[i]) / c;  // gamma_i = sigma_i / c, the paper's suggested choice
    const double omega = omega_sum * (sigma_sq[i] / c);
    const double delta = delta_sum * (sigma_sq[i] / (c * c)) * gamma;
    // The player update: mu <- mu + (sigma² / sigma_i²) Omega_i;  sigma² <- sigma² max(1 - (sigma² / sigma_i²)
    // Delta_i, kappa), kappa keeping the variance positive (the paper's Table 1 points to its (28) and (44)).
    const Rating& p = prior[order[i]];
    const double share = p.sigma * p.sigma / sigma_sq[i];
    updated[order[i]] = {p.mu + share * omega, p.sigma * std::sqrt(std::max(1 - share * delta, parameters.kappa))};
  }
  if (parameters.limit_sigma && parameters.tau != 0) {
    for (std::size_t i = 0; i < k; ++i) updated[i].sigma = std::min(updated[i].sigma, players[i].sigma);
  }
  return updated;
}

double ordinal(const Rating& rating) { return rating.mu - 3 * rating.sigma; }

int displayed_rating(const Rating& rating) {
  return static_cast<int>(std::lround(std::max(0.0, kDisplayedAtZero + kDisplayedPerMu * ordinal(rating))));
}

bool is_provisional(const Rating& rating) { return !(rating.sigma < kProvisionalSigma); }

}  // namespace emporium::server::ratings
