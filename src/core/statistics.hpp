#pragma once
// Statistics over the runs of one (annotation, metric, config), as nsight-python computes them
// with pandas: NaN values are skipped, the standard deviation uses ddof 1.

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
  double ci95_lower = 0;      ///< mean - 1.96 stddev / sqrt(count)
  double ci95_upper = 0;
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

}  // namespace kscope::stats
