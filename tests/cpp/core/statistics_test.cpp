#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/statistics.hpp"

namespace kscope::stats {
namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(StatisticsTest, SummaryMatchesHandComputedValues) {
  // values 10, 12, 14: mean 12, sample sd 2, CI half-width 1.96*2/sqrt(3)
  const Summary s = summarize({10, 12, 14});
  EXPECT_DOUBLE_EQ(s.mean, 12.0);
  EXPECT_DOUBLE_EQ(s.stddev, 2.0);
  EXPECT_DOUBLE_EQ(s.min, 10.0);
  EXPECT_DOUBLE_EQ(s.max, 14.0);
  EXPECT_EQ(s.count, 3u);
  EXPECT_NEAR(s.ci95_lower, 12.0 - 1.96 * 2.0 / std::sqrt(3.0), 1e-12);
  EXPECT_NEAR(s.ci95_upper, 12.0 + 1.96 * 2.0 / std::sqrt(3.0), 1e-12);
  EXPECT_NEAR(s.rel_stddev_pct, 100.0 * 2.0 / 12.0, 1e-12);
  ASSERT_TRUE(s.stable.has_value());
  EXPECT_FALSE(*s.stable);  // 16.7 % >= 2 %
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
