#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "core/statistics.hpp"

namespace kscope::stats {
namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(StatisticsTest, SummaryMatchesHandComputedValues) {
  // values 10, 12, 14: mean 12, sample sd 2, CI half-width t(0.975, 2) * 2 / sqrt(3) with
  // t(0.975, 2) = 4.302653 (nsight-python's 1.96 gives an interval 2.2 times narrower)
  const Summary s = summarize({10, 12, 14});
  EXPECT_DOUBLE_EQ(s.mean, 12.0);
  EXPECT_DOUBLE_EQ(s.stddev, 2.0);
  EXPECT_DOUBLE_EQ(s.min, 10.0);
  EXPECT_DOUBLE_EQ(s.max, 14.0);
  EXPECT_EQ(s.count, 3u);
  EXPECT_NEAR(s.ci95_lower, 12.0 - 4.302653 * 2.0 / std::sqrt(3.0), 1e-5);
  EXPECT_NEAR(s.ci95_upper, 12.0 + 4.302653 * 2.0 / std::sqrt(3.0), 1e-5);
  EXPECT_DOUBLE_EQ(s.median, 12.0);
  EXPECT_DOUBLE_EQ(s.q1, 11.0);
  EXPECT_DOUBLE_EQ(s.q3, 13.0);
  EXPECT_NEAR(s.rel_stddev_pct, 100.0 * 2.0 / 12.0, 1e-12);
  ASSERT_TRUE(s.stable.has_value());
  EXPECT_FALSE(*s.stable);  // 16.7 % >= 2 %
}

TEST(StatisticsTest, QuantilesInterpolateLinearlyAsNumpy) {
  // numpy.quantile([1, 2, 3, 4, 10], [0.25, 0.5, 0.75]) = [2, 3, 4];
  // numpy.quantile([1, 2, 3, 4], [0.25, 0.5, 0.75]) = [1.75, 2.5, 3.25]
  const Summary odd = summarize({10, 1, 3, 2, 4});
  EXPECT_DOUBLE_EQ(odd.q1, 2.0);
  EXPECT_DOUBLE_EQ(odd.median, 3.0);
  EXPECT_DOUBLE_EQ(odd.q3, 4.0);
  EXPECT_DOUBLE_EQ(quantile({4, 3, 2, 1}, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(quantile({4, 3, 2, 1}, 0.5), 2.5);
  EXPECT_DOUBLE_EQ(quantile({4, 3, 2, 1}, 0.75), 3.25);
  EXPECT_DOUBLE_EQ(quantile({kNaN, 7}, 0.25), 7.0);
  EXPECT_TRUE(std::isnan(quantile({}, 0.5)));
}

TEST(StatisticsTest, CiUsesStudentTAtTenRuns) {
  // ten values 0..9: sd 3.02765, t(0.975, 9) = 2.262157
  std::vector<double> v;
  for (int i = 0; i < 10; ++i) v.push_back(i);
  const Summary s = summarize(v);
  EXPECT_NEAR(s.ci95_upper - s.mean, 2.262157 * s.stddev / std::sqrt(10.0), 1e-5);
}

TEST(StatisticsTest, StableBelowTwoPercent) {
  const Summary s = summarize({100, 101, 99});
  ASSERT_TRUE(s.stable.has_value());
  EXPECT_TRUE(*s.stable);
}

TEST(StatisticsTest, OneRunHasUndefinedSpreadAndStability) {
  const Summary s = summarize({5});
  EXPECT_DOUBLE_EQ(s.mean, 5);
  EXPECT_TRUE(std::isnan(s.stddev));
  EXPECT_TRUE(std::isnan(s.ci95_lower));
  EXPECT_TRUE(std::isnan(s.rel_stddev_pct));
  EXPECT_FALSE(s.stable.has_value());
  EXPECT_EQ(s.count, 1u);
  EXPECT_DOUBLE_EQ(s.median, 5);
  EXPECT_DOUBLE_EQ(s.q1, 5);
}

TEST(StatisticsTest, NaNValuesAreSkippedAndNotCounted) {
  const Summary s = summarize({kNaN, 4, 6});
  EXPECT_EQ(s.count, 2u);
  EXPECT_DOUBLE_EQ(s.mean, 5);
  EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(2.0));
}

TEST(StatisticsTest, ZeroMeanGivesUndefinedRelativeSpread) {
  const Summary s = summarize({-1, 1});
  EXPECT_DOUBLE_EQ(s.mean, 0);
  EXPECT_TRUE(std::isnan(s.rel_stddev_pct));
  EXPECT_FALSE(s.stable.has_value());
}

TEST(StatisticsTest, RelativeSpreadUsesAbsoluteMean) {
  const Summary s = summarize({-10, -12, -14});
  EXPECT_NEAR(s.rel_stddev_pct, 100.0 * 2.0 / 12.0, 1e-12);
}

TEST(StatisticsTest, AllNaNGivesNaNEverywhere) {
  const Summary s = summarize({kNaN, kNaN});
  EXPECT_EQ(s.count, 0u);
  EXPECT_TRUE(std::isnan(s.mean));
  EXPECT_TRUE(std::isnan(s.max));
}

TEST(StatisticsTest, GeomeanFollowsNumpy) {
  EXPECT_NEAR(geomean({1, 4, 16}), 4.0, 1e-12);
  EXPECT_NEAR(geomean({2, kNaN, 8}), 4.0, 1e-12);
  EXPECT_DOUBLE_EQ(geomean({0, 5}), 0.0);
  EXPECT_TRUE(std::isnan(geomean({-1, 5})));
  EXPECT_TRUE(std::isnan(geomean({})));
}

TEST(StatisticsTest, Median) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_TRUE(std::isnan(median({})));
}

}  // namespace
}  // namespace kscope::stats
