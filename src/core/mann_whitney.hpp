#pragma once
// The Mann-Whitney U test (Wilcoxon rank-sum): do two samples come from distributions of which
// one tends to give larger values? kscope compare's test of rows with 10 runs or more a side
// (docs/compare.md).
// Computed here (no scipy): exact distribution for small samples without ties, the normal
// approximation with tie and continuity corrections otherwise.

#include <cstddef>
#include <vector>

namespace kscope::stats {

struct UTest {
  double u = 0;        ///< U of the first sample: pairs (x, y) with x > y, ties counting 1/2
  double p_value = 1;  ///< two-sided
  bool exact = false;  ///< p from the exact distribution (else the normal approximation)
};

/// Samples up to this total size without ties get the exact p-value.
inline constexpr std::size_t kExactUTestMaxSize = 50;

/// Two-sided Mann-Whitney U test of `x` against `y` (NaN values dropped). Empty sample: U = 0,
/// p = 1.
[[nodiscard]] UTest mann_whitney_u(const std::vector<double>& x, const std::vector<double>& y);

/// P(U <= u) under the null hypothesis for samples of sizes m and n without ties (exact).
[[nodiscard]] double exact_u_cdf(std::size_t m, std::size_t n, double u);

}  // namespace kscope::stats
