#include "core/sample_comparison.hpp"

#include <algorithm>
#include <cmath>

#include "core/mann_whitney.hpp"
#include "core/statistics.hpp"
#include "core/student_t.hpp"

namespace kscope::stats {
namespace {

// 95 % CI of mean(y) / mean(x): delta method on the log of the ratio, whose variance is the sum
// of the squared relative standard errors, with Welch-Satterthwaite degrees of freedom.
void ratio_interval(const Summary& x, const Summary& y, ComparisonRow& row) {
  if (x.count < 2 || y.count < 2 || !(x.mean > 0) || !(y.mean > 0)) return;
  const double vx = x.stddev * x.stddev / (static_cast<double>(x.count) * x.mean * x.mean);
  const double vy = y.stddev * y.stddev / (static_cast<double>(y.count) * y.mean * y.mean);
  const double var = vx + vy;
  if (var == 0) {
    row.ratio_ci_lower = row.ratio_ci_upper = row.ratio;
    return;
  }
  const double df = var * var / (vx * vx / static_cast<double>(x.count - 1) +
                                 vy * vy / static_cast<double>(y.count - 1));
  const double half = student_t_quantile(0.975, df) * std::sqrt(var);
  row.ratio_ci_lower = row.ratio * std::exp(-half);
  row.ratio_ci_upper = row.ratio * std::exp(half);
}

}  // namespace

void compare_samples(const std::vector<double>& base, const std::vector<double>& next,
                     double alpha, const std::optional<double>& threshold, ComparisonRow& row) {
  const Summary b = summarize(base);
  const Summary n = summarize(next);
  row.base_value = b.mean;
  row.new_value = n.mean;
  row.base_runs = b.count;
  row.new_runs = n.count;
  row.base_rsd_pct = b.rel_stddev_pct;
  row.new_rsd_pct = n.rel_stddev_pct;
  row.verdict = Verdict::kUnsure;
  if (b.count == 0 || n.count == 0) return;
  row.ratio = n.mean / b.mean;
  ratio_interval(b, n, row);
  const double change = row.ratio - 1;
  if (b.count < 2 || n.count < 2) {
    if (n.mean == b.mean) row.verdict = Verdict::kSame;
    return;
  }
  const UTest u = mann_whitney_u(next, base);
  row.p_value = u.p_value;
  // RSD is NaN when a mean is 0; then only the test decides.
  const double noise = std::fmin(b.rel_stddev_pct, n.rel_stddev_pct) / 100;
  if (n.mean == b.mean || std::fabs(change) <= noise) {
    row.verdict = Verdict::kSame;
  } else if (u.p_value < alpha) {
    const bool better = row.direction == Direction::kLowerIsBetter ? n.mean < b.mean
                                                                    : n.mean > b.mean;
    row.verdict = better ? Verdict::kFaster : Verdict::kSlower;
  }
  if (row.verdict == Verdict::kSlower && threshold) {
    // How much worse, as a fraction of BASE, in the metric's direction.
    const double worse = row.direction == Direction::kLowerIsBetter ? change : -change;
    row.beyond_threshold = worse > *threshold;
  }
}

}  // namespace kscope::stats
