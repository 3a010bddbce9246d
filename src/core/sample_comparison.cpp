#include "core/sample_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/mann_whitney.hpp"
#include "core/statistics.hpp"
#include "core/student_t.hpp"

namespace kscope::stats {
namespace {

// The 95 % CI of mean(y) / mean(x) and its own two-sided test: the delta method on the log of
// the ratio, whose variance is the sum of the squared relative standard errors, with
// Welch-Satterthwaite degrees of freedom. p < 0.05 exactly when the interval excludes 1.
void ratio_interval_and_t_test(const Summary& x, const Summary& y, ComparisonRow& row) {
  const double vx = x.stddev * x.stddev / (static_cast<double>(x.count) * x.mean * x.mean);
  const double vy = y.stddev * y.stddev / (static_cast<double>(y.count) * y.mean * y.mean);
  const double var = vx + vy;
  const double log_ratio = std::log(row.ratio);
  if (var == 0) {  // both sides constant: the ratio is known exactly
    row.ratio_ci_lower = row.ratio_ci_upper = row.ratio;
    row.p_value = log_ratio == 0 ? 1.0 : 0.0;
    return;
  }
  const double df = var * var / (vx * vx / static_cast<double>(x.count - 1) +
                                 vy * vy / static_cast<double>(y.count - 1));
  const double se = std::sqrt(var);
  const double half = student_t_quantile(0.975, df) * se;
  row.ratio_ci_lower = row.ratio * std::exp(-half);
  row.ratio_ci_upper = row.ratio * std::exp(half);
  row.p_value = std::min(1.0, 2 * student_t_cdf(-std::fabs(log_ratio) / se, df));
}

}  // namespace

void row_statistics(const std::vector<double>& base, const std::vector<double>& next,
                    ComparisonRow& row) {
  const Summary b = summarize(base);
  const Summary n = summarize(next);
  row.base_value = b.mean;
  row.new_value = n.mean;
  row.base_runs = b.count;
  row.new_runs = n.count;
  row.base_rsd_pct = b.rel_stddev_pct;
  row.new_rsd_pct = n.rel_stddev_pct;
  if (!(b.mean > 0) || !(n.mean > 0)) return;  // no ratio (and no side: no values)
  row.ratio = n.mean / b.mean;
  if (b.count < 2 || n.count < 2) return;
  ratio_interval_and_t_test(b, n, row);
  row.test = "t";
  if (b.count >= kUTestMinRuns && n.count >= kUTestMinRuns) {
    row.p_value = mann_whitney_u(next, base).p_value;
    row.test = "U";
  }
}

std::vector<double> holm_adjusted(const std::vector<double>& p) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (!std::isnan(p[i])) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
  std::vector<double> out(p.size(), std::numeric_limits<double>::quiet_NaN());
  const double m = static_cast<double>(order.size());
  double running = 0;  // the step-down's maximum so far keeps the adjusted values monotone
  for (std::size_t k = 0; k < order.size(); ++k) {
    running = std::max(running, std::min(1.0, (m - static_cast<double>(k)) * p[order[k]]));
    out[order[k]] = running;
  }
  return out;
}

void decide(std::vector<ComparisonRow>& rows, const CompareOptions& options) {
  std::vector<double> p;
  for (const auto& r : rows) p.push_back(r.p_value);
  const std::vector<double> adjusted = holm_adjusted(p);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    ComparisonRow& row = rows[i];
    row.p_adjusted = adjusted[i];
    if (row.verdict == Verdict::kBaseOnly || row.verdict == Verdict::kNewOnly) continue;
    const bool equal = row.base_runs > 0 && row.new_runs > 0 && row.base_value == row.new_value;
    row.verdict = equal ? Verdict::kSame : Verdict::kUnsure;
    if (equal || std::isnan(row.p_adjusted)) continue;  // no ratio, or a side of one run
    const double change = row.ratio - 1;
    const bool significant = row.p_adjusted < options.alpha;
    if (std::fabs(change) <= options.noise) {
      row.verdict = Verdict::kSame;
      row.within_noise = significant;
    } else if (significant) {
      const bool better = row.direction == Direction::kLowerIsBetter ? change < 0 : change > 0;
      row.verdict = better ? Verdict::kFaster : Verdict::kSlower;
    }
    if (row.verdict == Verdict::kSlower && options.threshold) {
      // How much worse, as a fraction of BASE, in the metric's direction.
      const double worse = row.direction == Direction::kLowerIsBetter ? change : -change;
      row.beyond_threshold = worse > *options.threshold;
    }
  }
}

}  // namespace kscope::stats
