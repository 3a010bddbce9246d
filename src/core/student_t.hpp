#pragma once
// Student's t distribution: the quantile behind CI95 (docs/output-schema.md), and the
// distribution functions the compare test needs. Computed here (no scipy, no Boost): the CDF
// from the regularised incomplete beta function (Lentz's continued fraction), the quantile by
// bisection on it. Tested against published table values (tests/cpp/core/student_t_test.cpp).

namespace kscope::stats {

/// P(T <= t) for Student's t with `df` degrees of freedom (df > 0, may be fractional).
[[nodiscard]] double student_t_cdf(double t, double df);

/// The t with P(T <= t) = p, 0 < p < 1, df > 0. NaN outside that domain. Accurate to ~1e-10.
[[nodiscard]] double student_t_quantile(double p, double df);

/// Standard normal P(Z <= z).
[[nodiscard]] double normal_cdf(double z);

/// Regularised incomplete beta function I_x(a, b), 0 <= x <= 1, a, b > 0.
[[nodiscard]] double incomplete_beta(double a, double b, double x);

}  // namespace kscope::stats
