#include "core/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <unordered_map>
#include <utility>

#include "core/student_t.hpp"

namespace kscope::stats {
namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<double> without_nan(std::vector<double> values) {
  values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return std::isnan(v); }),
               values.end());
  return values;
}

// quantile() of values already sorted, without NaN, not empty.
double sorted_quantile(const std::vector<double>& sorted, double q) {
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = pos - static_cast<double>(lo);
  return sorted[lo] + frac * (sorted[hi] - sorted[lo]);
}
}  // namespace

Summary summarize(const std::vector<double>& values) {
  std::vector<double> v = without_nan(values);
  Summary s;
  s.count = v.size();
  if (v.empty()) {
    s.mean = s.stddev = s.min = s.max = s.ci95_lower = s.ci95_upper = s.rel_stddev_pct = kNaN;
    s.median = s.q1 = s.q3 = kNaN;
    return s;
  }
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / static_cast<double>(v.size());
  s.min = *std::min_element(v.begin(), v.end());
  s.max = *std::max_element(v.begin(), v.end());
  if (v.size() >= 2) {
    double ss = 0;
    for (double x : v) ss += (x - s.mean) * (x - s.mean);
    s.stddev = std::sqrt(ss / static_cast<double>(v.size() - 1));
  } else {
    s.stddev = kNaN;
  }
  // After the sums and the extremes, which are taken in the values' order.
  std::sort(v.begin(), v.end());
  s.median = sorted_quantile(v, 0.5);
  s.q1 = sorted_quantile(v, 0.25);
  s.q3 = sorted_quantile(v, 0.75);
  const double half = ci95_half_width(s.stddev, v.size());
  s.ci95_lower = s.mean - half;
  s.ci95_upper = s.mean + half;
  if (s.mean == 0 || std::isnan(s.stddev) || std::isnan(s.mean)) {
    s.rel_stddev_pct = kNaN;
  } else {
    s.rel_stddev_pct = 100.0 * s.stddev / std::fabs(s.mean);
  }
  if (!std::isnan(s.rel_stddev_pct)) s.stable = s.rel_stddev_pct < kStableRelStdDevPct;
  return s;
}

double geomean(const std::vector<double>& values) {
  const std::vector<double> v = without_nan(values);
  if (v.empty()) return kNaN;
  double sum = 0;
  for (double x : v) sum += std::log(x);  // log(0) = -inf, log(<0) = NaN, as numpy
  return std::exp(sum / static_cast<double>(v.size()));
}

double median(std::vector<double> values) {
  values = without_nan(std::move(values));
  if (values.empty()) return kNaN;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

double quantile(std::vector<double> values, double q) {
  values = without_nan(std::move(values));
  if (values.empty() || !(q >= 0) || !(q <= 1)) return kNaN;
  std::sort(values.begin(), values.end());
  return sorted_quantile(values, q);
}

double ci95_half_width(double stddev, std::size_t count) {
  if (count < 2 || std::isnan(stddev)) return kNaN;
  // The quantile bisects the t CDF (~40 incomplete-beta evaluations): a result table asks for
  // the same few sample sizes again and again, so each is computed once per process.
  static std::mutex mu;
  static std::unordered_map<std::size_t, double> quantiles;
  double t = 0;
  {
    const std::lock_guard<std::mutex> lock(mu);
    const auto it = quantiles.find(count);
    if (it != quantiles.end()) {
      t = it->second;
    } else {
      t = student_t_quantile(0.975, static_cast<double>(count) - 1);
      quantiles.emplace(count, t);
    }
  }
  return t * stddev / std::sqrt(static_cast<double>(count));
}

}  // namespace kscope::stats
