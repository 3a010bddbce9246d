#include "core/mann_whitney.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/student_t.hpp"

namespace kscope::stats {
namespace {

std::vector<double> finite(const std::vector<double>& v) {
  std::vector<double> out;
  for (double x : v) {
    if (!std::isnan(x)) out.push_back(x);
  }
  return out;
}

}  // namespace

double exact_u_cdf(std::size_t m, std::size_t n, double u) {
  // The number of arrangements with U = k is the coefficient of q^k of the Gaussian binomial
  // [m + n choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i). Counts stay below 2^53 for
  // m + n <= 50 (C(50, 25) ~ 1.3e14), so doubles hold them exactly.
  const std::size_t top = m * n;
  std::vector<double> c(top + 1, 0.0);
  c[0] = 1;
  for (std::size_t i = 1; i <= m; ++i) {
    for (std::size_t k = top; k >= n + i && k <= top; --k) c[k] -= c[k - n - i];  // * (1 - q^(n+i))
    for (std::size_t k = i; k <= top; ++k) c[k] += c[k - i];                     // / (1 - q^i)
  }
  double total = 0;
  double below = 0;
  for (std::size_t k = 0; k <= top; ++k) {
    total += c[k];
    if (static_cast<double>(k) <= u + 1e-9) below += c[k];
  }
  return below / total;
}

UTest mann_whitney_u(const std::vector<double>& x_in, const std::vector<double>& y_in) {
  const std::vector<double> x = finite(x_in);
  const std::vector<double> y = finite(y_in);
  UTest t;
  if (x.empty() || y.empty()) return t;
  const std::size_t m = x.size();
  const std::size_t n = y.size();
  // Ranks of the pooled sample, ties given their average rank.
  std::vector<std::pair<double, bool>> pooled;  // value, from x
  for (double v : x) pooled.emplace_back(v, true);
  for (double v : y) pooled.emplace_back(v, false);
  std::sort(pooled.begin(), pooled.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  double rank_sum_x = 0;
  double tie_term = 0;  // sum of (t^3 - t) over tie groups
  for (std::size_t i = 0; i < pooled.size();) {
    std::size_t j = i;
    while (j < pooled.size() && pooled[j].first == pooled[i].first) ++j;
    const double avg_rank = 0.5 * static_cast<double>(i + 1 + j);  // ranks i+1 .. j
    for (std::size_t k = i; k < j; ++k) {
      if (pooled[k].second) rank_sum_x += avg_rank;
    }
    const double ties = static_cast<double>(j - i);
    tie_term += ties * ties * ties - ties;
    i = j;
  }
  const double dm = static_cast<double>(m);
  const double dn = static_cast<double>(n);
  t.u = rank_sum_x - dm * (dm + 1) / 2;
  const double mn = dm * dn;
  if (tie_term == 0 && m + n <= kExactUTestMaxSize) {
    const double smaller = std::min(t.u, mn - t.u);
    t.p_value = std::min(1.0, 2 * exact_u_cdf(m, n, smaller));
    t.exact = true;
    return t;
  }
  const double total = dm + dn;
  const double variance = mn / 12 * ((total + 1) - tie_term / (total * (total - 1)));
  if (!(variance > 0)) {  // every value equal
    t.p_value = 1;
    return t;
  }
  const double distance = std::max(0.0, std::fabs(t.u - mn / 2) - 0.5);  // continuity correction
  t.p_value = std::min(1.0, 2 * (1 - normal_cdf(distance / std::sqrt(variance))));
  return t;
}

}  // namespace kscope::stats
