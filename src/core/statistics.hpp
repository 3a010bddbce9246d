#pragma once
// Statistics over the runs of one (annotation, metric, config), as nsight-python computes them
// with pandas: NaN values are skipped, the standard deviation uses ddof 1. Two differences from
// nsight-python, both deliberate (docs/output-schema.md): the CI95 half-width uses Student's t
// quantile t(0.975, n - 1) where nsight-python uses the normal 1.96 whatever n (at n = 3 its
// interval is 2.2x too narrow, at n = 10 15 %), and Median, Q1 and Q3 are added.

#include <cstddef>
#include <optional>
#include <vector>

namespace kscope::stats {

struct Summary {
  double mean = 0;            ///< over non-NaN values; NaN when there are none
  double stddev = 0;          ///< ddof 1; NaN for fewer than 2 values
  double min = 0;
  double max = 0;
  std::size_t count = 0;      ///< non-NaN values
  double ci95_lower = 0;      ///< mean - t(0.975, count - 1) stddev / sqrt(count)
  double ci95_upper = 0;      ///< mean + t(0.975, count - 1) stddev / sqrt(count)
  double median = 0;          ///< 50 % quantile; NaN when there are no values
  double q1 = 0;              ///< 25 % quantile (linear interpolation, numpy's default)
  double q3 = 0;              ///< 75 % quantile
  double rel_stddev_pct = 0;  ///< 100 stddev / |mean|; NaN when mean is 0 or stddev NaN
  std::optional<bool> stable; ///< rel_stddev_pct < 2; nullopt when undefined
};

/// Threshold of StableMeasurement, in percent.
inline constexpr double kStableRelStdDevPct = 2.0;

[[nodiscard]] Summary summarize(const std::vector<double>& values);

/// exp(mean(log(x))) over non-NaN x, numpy semantics: a zero gives 0, a negative gives NaN,
/// no values give NaN.
[[nodiscard]] double geomean(const std::vector<double>& values);

/// Median of non-NaN values (NaN when none). Used by the console table and benchmarks.
[[nodiscard]] double median(std::vector<double> values);

/// The q quantile (0 <= q <= 1) of non-NaN values with linear interpolation between order
/// statistics (numpy's and pandas' default, Hyndman-Fan type 7); NaN when none.
[[nodiscard]] double quantile(std::vector<double> values, double q);

/// Half-width of the two-sided 95 % confidence interval of the mean of `count` values with
/// sample standard deviation `stddev`: t(0.975, count - 1) stddev / sqrt(count). NaN for fewer
/// than 2 values.
[[nodiscard]] double ci95_half_width(double stddev, std::size_t count);

}  // namespace kscope::stats
