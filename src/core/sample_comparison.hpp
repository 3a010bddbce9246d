#pragma once
// The statistics and verdicts of compared rows (the runs of one row in BASE and in NEW), the
// statistical core of kscope::compare (docs/compare.md). Pure, tested on synthetic samples.

#include <vector>

#include "kscope/compare.hpp"

namespace kscope::stats {

/// Fills the statistics of `row` from the raw values of BASE and NEW (NaN values dropped):
/// means, runs, RSDs, and, with positive means, the ratio; with 2 or more runs a side also the
/// ratio's CI95 and the p-value of the row's test (Welch's t on log(ratio) below kUTestMinRuns
/// runs on a side, else the Mann-Whitney U test). The verdict is left to decide().
void row_statistics(const std::vector<double>& base, const std::vector<double>& next,
                    ComparisonRow& row);

/// Decides every row of a comparison whose statistics row_statistics() filled (BASE_ONLY and
/// NEW_ONLY rows keep their verdict): Holm's adjustment over the rows with a p-value, then per
/// row, in this order (docs/compare.md, "The verdict"):
///   - a side without values, or a non-positive mean on a side: UNSURE (SAME for equal means);
///   - fewer than 2 values on a side: SAME when the means are equal, else UNSURE;
///   - |ratio - 1| <= noise: SAME (within_noise when significant);
///   - adjusted p < alpha: FASTER or SLOWER by the direction of the change;
///   - otherwise UNSURE;
/// and beyond_threshold for a SLOWER row worse than the threshold.
void decide(std::vector<ComparisonRow>& rows, const CompareOptions& options);

/// Holm's step-down adjustment of `p` (NaN entries are not part of the family and stay NaN):
/// the i-th smallest of m p-values becomes max over j <= i of min(1, (m - j + 1) p_(j)).
[[nodiscard]] std::vector<double> holm_adjusted(const std::vector<double>& p);

}  // namespace kscope::stats
