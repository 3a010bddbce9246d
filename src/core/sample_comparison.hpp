#pragma once
// The verdict on two samples of one metric (the runs of one row in BASE and in NEW), the
// statistical core of kscope::compare (docs/compare.md). Pure, tested on synthetic pairs.

#include <vector>

#include "kscope/compare.hpp"

namespace kscope::stats {

/// Fills every statistic of `row` (values, runs, RSDs, ratio and its CI, p-value, verdict,
/// beyond_threshold) from the raw values of BASE and NEW (NaN values are dropped), in
/// `row.direction`. Rules, in order:
///   - a side without values: UNSURE;
///   - fewer than 2 values on a side: SAME when the means are equal, else UNSURE (no noise
///     estimate);
///   - |new / base - 1| within the quieter side's relative standard deviation: SAME
///     (nvbench_compare's rule);
///   - Mann-Whitney U p-value below `alpha`: FASTER or SLOWER by the direction of the change;
///   - otherwise UNSURE.
void compare_samples(const std::vector<double>& base, const std::vector<double>& next,
                     double alpha, const std::optional<double>& threshold, ComparisonRow& row);

}  // namespace kscope::stats
