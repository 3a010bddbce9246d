#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/mann_whitney.hpp"

namespace kscope::stats {
namespace {

// Brute force: P(U <= u) over every way of choosing which m of the m + n ranks are x's.
double brute_force_cdf(std::size_t m, std::size_t n, double u) {
  std::vector<bool> pick(m + n, false);
  std::fill(pick.begin(), pick.begin() + static_cast<long>(m), true);
  double below = 0;
  double total = 0;
  std::sort(pick.begin(), pick.end());
  do {
    double ux = 0;  // pairs (x, y) with x above y
    std::size_t ys = 0;
    for (bool is_x : pick) {
      if (is_x) {
        ux += static_cast<double>(ys);
      } else {
        ++ys;
      }
    }
    total += 1;
    if (ux <= u) below += 1;
  } while (std::next_permutation(pick.begin(), pick.end()));
  return below / total;
}

TEST(MannWhitneyTest, ExactDistributionMatchesEnumeration) {
  for (std::size_t m : {1u, 2u, 3u, 5u}) {
    for (std::size_t n : {1u, 3u, 4u, 6u}) {
      for (double u = 0; u <= static_cast<double>(m * n); u += 1) {
        EXPECT_NEAR(exact_u_cdf(m, n, u), brute_force_cdf(m, n, u), 1e-12) << m << " " << n;
      }
    }
  }
}

TEST(MannWhitneyTest, CompletelySeparatedSmallSamples) {
  // x all below y: U = 0, exact two-sided p = 2 / C(6, 3) = 0.1.
  const UTest t = mann_whitney_u({1, 2, 3}, {4, 5, 6});
  EXPECT_DOUBLE_EQ(t.u, 0);
  EXPECT_TRUE(t.exact);
  EXPECT_NEAR(t.p_value, 0.1, 1e-12);
  // Ten against ten: p = 2 / C(20, 10) = 1.0825e-05.
  std::vector<double> x, y;
  for (int i = 0; i < 10; ++i) {
    x.push_back(i);
    y.push_back(100 + i);
  }
  EXPECT_NEAR(mann_whitney_u(y, x).p_value, 2.0 / 184756, 1e-15);
  EXPECT_DOUBLE_EQ(mann_whitney_u(y, x).u, 100);
}

TEST(MannWhitneyTest, IdenticalSamplesGivePOne) {
  const UTest t = mann_whitney_u({5, 5, 5}, {5, 5, 5});
  EXPECT_DOUBLE_EQ(t.p_value, 1);
  EXPECT_DOUBLE_EQ(t.u, 4.5);  // every pair a tie: 9 / 2
}

TEST(MannWhitneyTest, TiesUseTheCorrectedNormalApproximation) {
  // x = {1, 2, 2, 3}, y = {2, 3, 4, 4}, by hand: pooled ranks 1 | 3 3 3 | 5.5 5.5 | 7.5 7.5,
  // x's rank sum 12.5, U_x = 12.5 - 10 = 2.5, mean 8, tie term 24 + 6 + 6 = 36,
  // variance = 16/12 * (9 - 36/56) = 11.142857, z = (5.5 - 0.5) / sqrt(var) = 1.497862,
  // p = 2 (1 - Phi(z)) = 0.134169.
  const UTest t = mann_whitney_u({1, 2, 2, 3}, {2, 3, 4, 4});
  EXPECT_FALSE(t.exact);
  EXPECT_DOUBLE_EQ(t.u, 2.5);
  EXPECT_NEAR(t.p_value, 0.134169, 1e-5);
}

TEST(MannWhitneyTest, NaNIsDroppedAndEmptyIsPOne) {
  EXPECT_DOUBLE_EQ(mann_whitney_u({}, {1, 2}).p_value, 1);
  const double nan = std::nan("");
  EXPECT_NEAR(mann_whitney_u({1, 2, 3, nan}, {4, 5, 6}).p_value, 0.1, 1e-12);
}

TEST(MannWhitneyTest, LargeSamplesUseTheNormalApproximation) {
  std::vector<double> x, y;
  for (int i = 0; i < 40; ++i) {
    x.push_back(i);
    y.push_back(i + 0.5);
  }
  const UTest t = mann_whitney_u(x, y);  // interleaved, y slightly larger: not significant
  EXPECT_FALSE(t.exact);
  EXPECT_GT(t.p_value, 0.5);
}

}  // namespace
}  // namespace kscope::stats
