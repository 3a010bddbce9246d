#include "core/stopping_rule.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/statistics.hpp"

namespace kscope {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// CI95 half-width / |mean| of one series; +inf with fewer than 2 values or a zero mean, NaN
// without values.
double relative_ci(const std::vector<double>& values) {
  const stats::Summary s = stats::summarize(values);
  if (s.count == 0) return kNaN;
  if (s.count < 2 || s.mean == 0) return std::numeric_limits<double>::infinity();
  return stats::ci95_half_width(s.stddev, s.count) / std::fabs(s.mean);
}

}  // namespace

const char* to_string(StopReason reason) {
  switch (reason) {
    case StopReason::kTarget: return "target";
    case StopReason::kMaxRuns: return "max_runs";
    case StopReason::kTimeBudget: return "time_budget";
    case StopReason::kNoiseFloor: return "noise_floor";
    case StopReason::kNoValues: return "no_values";
  }
  return "target";
}

StoppingRule::StoppingRule(StopCriteria criteria) : criteria_(criteria) {
  criteria_.min_runs = std::max<std::size_t>(1, criteria_.min_runs);
  criteria_.max_runs = std::max(criteria_.max_runs, criteria_.min_runs);
}

std::optional<StopReason> StoppingRule::after_batch(
    const std::vector<std::vector<double>>& series, std::size_t runs, double elapsed_s) {
  // The widest interval decides: every series must reach the target.
  rel_ci_ = kNaN;
  for (const auto& s : series) {
    const double r = relative_ci(s);
    if (!std::isnan(r)) rel_ci_ = std::isnan(rel_ci_) ? r : std::max(rel_ci_, r);
  }
  next_batch_ = 0;
  if (std::isnan(rel_ci_)) return StopReason::kNoValues;
  if (rel_ci_ <= criteria_.target_rel_ci) return StopReason::kTarget;
  if (runs >= criteria_.max_runs) return StopReason::kMaxRuns;
  if (elapsed_s >= criteria_.time_budget_s) return StopReason::kTimeBudget;
  for (auto it = history_.rbegin(); it != history_.rend(); ++it) {
    if (it->runs * kNoiseFloorGrowth > runs) continue;
    if (it->runs >= kNoiseFloorMinRuns && std::isfinite(it->rel_ci) &&
        rel_ci_ > kNoiseFloorMaxRatio * it->rel_ci) {
      return StopReason::kNoiseFloor;
    }
    break;
  }
  history_.push_back({runs, rel_ci_});

  const double n = static_cast<double>(runs);
  double wanted = n;  // an infinite interval (one value so far): double the runs
  if (std::isfinite(rel_ci_)) {
    const double ratio = rel_ci_ / criteria_.target_rel_ci;
    wanted = std::ceil(n * ratio * ratio) - n;
  }
  std::size_t batch = static_cast<std::size_t>(
      std::clamp(wanted, 1.0, std::max(1.0, static_cast<double>(kMaxBatchGrowth) * n)));
  batch = std::min(batch, criteria_.max_runs - runs);
  if (runs > 0 && elapsed_s > 0) {
    const double per_run = elapsed_s / n;
    const double left = (criteria_.time_budget_s - elapsed_s) / per_run;
    batch = std::min(batch, static_cast<std::size_t>(std::max(1.0, std::floor(left))));
  }
  next_batch_ = std::max<std::size_t>(1, batch);
  return std::nullopt;
}

}  // namespace kscope
