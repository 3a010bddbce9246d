// The statistics and verdicts of compared rows on synthetic samples with known answers: the
// verdict table of docs/compare.md row by row, which test decides when, the interval's
// agreement with the verdict at 2-4 runs a side, the t test's false-positive rate, Holm's
// adjustment, and the family-wise false-positive rate of 500 unchanged rows by simulation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "core/sample_comparison.hpp"
#include "kscope/compare.hpp"
#include "support/normal_samples.hpp"

namespace kscope {
namespace {

using testing::Normal;
using testing::normal;

CompareOptions with(double noise, std::optional<double> threshold = std::nullopt) {
  CompareOptions o;
  o.noise = noise;
  o.threshold = threshold;
  return o;
}

// One row decided alone (a family of one).
ComparisonRow verdict_of(const std::vector<double>& base, const std::vector<double>& next,
                         const CompareOptions& options = {},
                         Direction d = Direction::kLowerIsBetter) {
  std::vector<ComparisonRow> rows(1);
  rows[0].direction = d;
  stats::row_statistics(base, next, rows[0]);
  stats::decide(rows, options);
  return rows[0];
}

bool interval_beyond(const ComparisonRow& r, double noise) {
  return r.ratio_ci_lower > 1 + noise || r.ratio_ci_upper < 1 - noise;
}

// --- the verdict table, row by row -----------------------------------------------------------

TEST(CompareVerdictTest, ASideWithoutValuesIsUnsure) {
  const double nan = std::nan("");
  const auto row = verdict_of({nan, nan}, {1, 2});
  EXPECT_EQ(row.verdict, Verdict::kUnsure);
  EXPECT_EQ(row.base_runs, 0u);
  EXPECT_TRUE(std::isnan(row.ratio));
}

TEST(CompareVerdictTest, ANonPositiveMeanHasNoRatioAndIsUnsureUnlessTheMeansAreEqual) {
  const auto negative = verdict_of({-1, -1.2}, {1, 1.1});
  EXPECT_EQ(negative.verdict, Verdict::kUnsure);
  EXPECT_TRUE(std::isnan(negative.ratio));
  EXPECT_TRUE(std::isnan(negative.p_value));
  EXPECT_EQ(verdict_of({0, 0}, {0, 0}).verdict, Verdict::kSame);
  EXPECT_EQ(verdict_of({0, 0}, {5, 6}).verdict, Verdict::kUnsure);
}

TEST(CompareVerdictTest, OneRunASideIsSameOnlyForEqualMeans) {
  EXPECT_EQ(verdict_of({100}, {100}).verdict, Verdict::kSame);
  const auto row = verdict_of({100}, {110});
  EXPECT_EQ(row.verdict, Verdict::kUnsure);
  EXPECT_DOUBLE_EQ(row.ratio, 1.1);
  EXPECT_TRUE(std::isnan(row.ratio_ci_lower));
  EXPECT_TRUE(std::isnan(row.p_value));
  EXPECT_EQ(row.test, "");
}

TEST(CompareVerdictTest, WithinTheNoiseIsSameAndNotSignificantIsNotWithinNoise) {
  // 0.5 % slower, noise 5 %: no test could tell, and it is within the 1 % noise threshold.
  const auto row = verdict_of(normal(100, 5, 20, 7), normal(100.5, 5, 20, 8));
  EXPECT_EQ(row.verdict, Verdict::kSame);
  EXPECT_FALSE(row.within_noise);
  EXPECT_GT(row.p_adjusted, 0.05);
  EXPECT_EQ(verdict_text(row), "SAME");
}

TEST(CompareVerdictTest, ASignificantChangeWithinTheNoiseIsSameWithinNoise) {
  // The A/A case: two processes 0.25 % apart, each quiet (0.05 %): significant, but a
  // practical change it is not.
  const auto row = verdict_of(normal(100, 0.05, 30, 5), normal(100.25, 0.05, 30, 6));
  EXPECT_LT(row.p_adjusted, 1e-6);
  EXPECT_EQ(row.verdict, Verdict::kSame);
  EXPECT_TRUE(row.within_noise);
  EXPECT_EQ(verdict_text(row), "SAME (within noise)");
  // With the noise threshold at 0 the same change is SLOWER.
  EXPECT_EQ(verdict_of(normal(100, 0.05, 30, 5), normal(100.25, 0.05, 30, 6), with(0)).verdict,
            Verdict::kSlower);
}

TEST(CompareVerdictTest, SignificantAndBeyondTheNoiseIsFasterOrSlower) {
  const auto faster = verdict_of(normal(100, 1, 20, 1), normal(80, 1, 20, 2));
  EXPECT_EQ(faster.verdict, Verdict::kFaster);
  EXPECT_NEAR(faster.ratio, 0.8, 0.01);
  EXPECT_LT(faster.ratio_ci_lower, faster.ratio);
  EXPECT_GT(faster.ratio_ci_upper, faster.ratio);
  EXPECT_LT(faster.ratio_ci_upper, 0.82);
  EXPECT_LT(faster.p_value, 1e-6);
  EXPECT_EQ(faster.base_runs, 20u);
  EXPECT_EQ(verdict_of(normal(100, 1, 20, 3), normal(102, 1, 20, 4)).verdict, Verdict::kSlower);
}

TEST(CompareVerdictTest, BeyondTheNoiseButNotSignificantIsUnsure) {
  // 3 % slower, with 10 % noise and 4 runs a side.
  const auto row = verdict_of({100, 110, 90, 100}, {103, 113, 93, 103});
  EXPECT_GT(row.ratio - 1, 0.01);
  EXPECT_GT(row.p_adjusted, 0.05);
  EXPECT_EQ(row.verdict, Verdict::kUnsure);
}

TEST(CompareVerdictTest, HigherIsBetterTurnsTheVerdict) {
  const auto better = verdict_of(normal(100, 1, 20, 11), normal(120, 1, 20, 12), with(0.01, 0.05),
                                 Direction::kHigherIsBetter);
  EXPECT_EQ(better.verdict, Verdict::kFaster);
  EXPECT_FALSE(better.beyond_threshold);
  const auto worse = verdict_of(normal(100, 1, 20, 13), normal(80, 1, 20, 14), with(0.01, 0.05),
                                Direction::kHigherIsBetter);
  EXPECT_EQ(worse.verdict, Verdict::kSlower);
  EXPECT_TRUE(worse.beyond_threshold);
}

TEST(CompareVerdictTest, TheThresholdMarksOnlySlowerRowsWorseThanIt) {
  const auto far = verdict_of(normal(100, 1, 20, 3), normal(120, 1, 20, 4), with(0.01, 0.05));
  EXPECT_EQ(far.verdict, Verdict::kSlower);
  EXPECT_TRUE(far.beyond_threshold);
  EXPECT_EQ(verdict_text(far), "SLOWER (beyond threshold)");
  // 2 % slower, significant: SLOWER, but not beyond a 5 % threshold.
  const auto near = verdict_of(normal(100, 0.1, 30, 5), normal(102, 0.1, 30, 6), with(0.01, 0.05));
  EXPECT_EQ(near.verdict, Verdict::kSlower);
  EXPECT_FALSE(near.beyond_threshold);
}

// --- which test decides ---------------------------------------------------------------------

TEST(CompareVerdictTest, WelchsTBelowTenRunsASideTheUTestFromTen) {
  EXPECT_EQ(verdict_of(normal(100, 1, 9, 1), normal(100, 1, 30, 2)).test, "t");
  EXPECT_EQ(verdict_of(normal(100, 1, 10, 1), normal(100, 1, 10, 2)).test, "U");
  // Three runs a side 30 % apart: the exact U test cannot go below p = 0.1, Welch's t can.
  const auto row = verdict_of({1000, 1010, 1020}, {1300, 1313, 1326});
  EXPECT_EQ(row.test, "t");
  EXPECT_LT(row.p_value, 1e-4);
  EXPECT_EQ(row.verdict, Verdict::kSlower);
}

TEST(CompareVerdictTest, TheUTestSeesSlowRunsTheMeansNoiseHides) {
  // Every third run of NEW takes twice as long; BASE is quiet. NEW's RSD is above its change.
  std::vector<double> base = normal(10, 0.05, 30, 9);
  std::vector<double> next = normal(10, 0.05, 30, 10);
  for (std::size_t i = 0; i < next.size(); i += 3) next[i] *= 2;
  const auto row = verdict_of(base, next);
  EXPECT_GT(row.new_rsd_pct, 100 * (row.ratio - 1));
  EXPECT_EQ(row.test, "U");
  EXPECT_EQ(row.verdict, Verdict::kSlower);
}

TEST(CompareVerdictTest, BimodalWithTheSameModesIsSame) {
  std::vector<double> base, next;
  for (int i = 0; i < 20; ++i) {
    base.push_back(i % 2 ? 20.0 + 0.01 * i : 10.0 + 0.01 * i);
    next.push_back(i % 2 ? 10.0 + 0.01 * i : 20.0 + 0.01 * i);
  }
  EXPECT_EQ(verdict_of(base, next).verdict, Verdict::kSame);
}

// --- the verdict agrees with the interval ---------------------------------------------------

// With 2-4 runs a side the t test is the interval's own: p < 0.05 exactly when the CI95
// excludes 1, so an interval beyond the noise band is always FASTER or SLOWER, and one beyond
// the threshold always fails it.
TEST(CompareVerdictTest, AtTwoToFourRunsTheVerdictFollowsTheInterval) {
  Normal draw(42);
  int beyond = 0;
  for (int n = 2; n <= 4; ++n) {
    for (int i = 0; i < 3000; ++i) {
      const double shift = 1 + 0.002 * (i % 50);  // 0 .. 9.8 % slower
      const double sd = 0.2 + 0.4 * (i % 7);      // 0.2 .. 2.6 % noise
      const auto row = verdict_of(draw(100, sd, n), draw(100 * shift, sd, n), with(0.01, 0.05));
      ASSERT_EQ(row.test, "t");
      const bool excludes_one = row.ratio_ci_lower > 1 || row.ratio_ci_upper < 1;
      ASSERT_EQ(row.p_value < 0.05, excludes_one) << n << " runs, p " << row.p_value;
      if (interval_beyond(row, 0.01)) {
        ++beyond;
        ASSERT_TRUE(row.verdict == Verdict::kSlower || row.verdict == Verdict::kFaster)
            << to_string(row.verdict);
      }
      if (row.ratio_ci_lower > 1.05) {
        ASSERT_TRUE(row.beyond_threshold);
      }
    }
  }
  EXPECT_GT(beyond, 1000);  // the property was exercised
}

// From 10 runs a side the U test decides: on normal samples it finds every change whose interval
// lies beyond the noise band too (it compares the distributions, so it can differ on others).
TEST(CompareVerdictTest, FromTenRunsTheUTestFindsWhatTheIntervalShowsOnNormalSamples) {
  Normal draw(43);
  int beyond = 0;
  for (int n : {10, 12, 15, 20, 30}) {
    for (int i = 0; i < 2000; ++i) {
      const double shift = 1 + 0.0005 * (i % 50);  // 0 .. 2.45 % slower
      const double sd = 0.2 + 0.4 * (i % 7);       // 0.2 .. 2.6 % noise
      const auto row = verdict_of(draw(100, sd, n), draw(100 * shift, sd, n), with(0.01, 0.05));
      ASSERT_EQ(row.test, "U");
      if (interval_beyond(row, 0.01)) {
        ++beyond;
        ASSERT_TRUE(row.verdict == Verdict::kSlower || row.verdict == Verdict::kFaster)
            << n << " runs: " << to_string(row.verdict) << " p " << row.p_value << " CI ["
            << row.ratio_ci_lower << ", " << row.ratio_ci_upper << "]";
      }
    }
  }
  EXPECT_GT(beyond, 1000);
}

// The t test keeps its false-positive rate at or below alpha at 2, 3 and 4 runs a side (no
// change, equal noise): Welch's degrees of freedom make it conservative at 2 (0.023).
TEST(CompareVerdictTest, TheTTestsFalsePositiveRateIsAtMostAlpha) {
  Normal draw(7);
  for (int n = 2; n <= 4; ++n) {
    int significant = 0;
    constexpr int kTrials = 20000;
    for (int i = 0; i < kTrials; ++i) {
      const auto row = verdict_of(draw(100, 1, n), draw(100, 1, n), with(0));
      significant += row.p_value < 0.05 ? 1 : 0;
    }
    const double rate = static_cast<double>(significant) / kTrials;
    std::printf("t test, %d runs a side, no change: p < 0.05 in %.4f of %d pairs\n", n, rate, kTrials);
    EXPECT_GT(rate, 0.015) << n << " runs";
    EXPECT_LT(rate, 0.055) << n << " runs";
  }
}

// --- many rows -------------------------------------------------------------------------------

TEST(CompareVerdictTest, HolmsStepDown) {
  const double nan = std::nan("");
  const auto p = stats::holm_adjusted({0.01, 0.04, 0.03, 0.005, nan});
  ASSERT_EQ(p.size(), 5u);
  EXPECT_DOUBLE_EQ(p[3], 0.02);  // 4 x 0.005
  EXPECT_DOUBLE_EQ(p[0], 0.03);  // 3 x 0.01
  EXPECT_DOUBLE_EQ(p[2], 0.06);  // 2 x 0.03
  EXPECT_DOUBLE_EQ(p[1], 0.06);  // 1 x 0.04, raised to the step before it
  EXPECT_TRUE(std::isnan(p[4]));
  EXPECT_DOUBLE_EQ(stats::holm_adjusted({0.6, 0.7})[1], 1.0);  // capped at 1
}

// The family-wise false-positive rate: sweeps of 500 unchanged rows, the noise threshold 0 so
// that only the tests stand between the rows and a verdict. Without the adjustment nearly
// every sweep would have a FASTER or SLOWER row (about 25 each).
void expect_family_wise_rate_at_alpha(int runs, std::uint32_t seed) {
  Normal draw(seed);
  constexpr int kSweeps = 200;
  constexpr int kRows = 500;
  int sweeps_with_a_verdict = 0;
  int sweeps_with_a_raw_p_below_alpha = 0;
  for (int s = 0; s < kSweeps; ++s) {
    std::vector<ComparisonRow> rows(kRows);
    for (auto& row : rows) stats::row_statistics(draw(100, 1, runs), draw(100, 1, runs), row);
    stats::decide(rows, with(0));
    bool verdict = false;
    bool raw = false;
    for (const auto& r : rows) {
      ASSERT_EQ(r.test, runs >= 10 ? "U" : "t");
      verdict |= r.verdict == Verdict::kFaster || r.verdict == Verdict::kSlower;
      raw |= r.p_value < 0.05;
    }
    sweeps_with_a_verdict += verdict ? 1 : 0;
    sweeps_with_a_raw_p_below_alpha += raw ? 1 : 0;
  }
  std::printf("%d runs a side: %d of %d sweeps of %d unchanged rows with a FASTER or SLOWER row\n",
              runs, sweeps_with_a_verdict, kSweeps, kRows);
  // 0.05 of 200 sweeps is 10, with a binomial sd of 3.1: at most 16 allows two of them.
  EXPECT_LE(sweeps_with_a_verdict, 16) << runs << " runs a side";
  EXPECT_EQ(sweeps_with_a_raw_p_below_alpha, kSweeps) << runs << " runs a side";
}

TEST(CompareVerdictTest, FiveHundredUnchangedRowsKeepTheFamilyWiseRateAtAlphaWithTheTTest) {
  expect_family_wise_rate_at_alpha(3, 2026);
}

TEST(CompareVerdictTest, FiveHundredUnchangedRowsKeepTheFamilyWiseRateAtAlphaWithTheUTest) {
  expect_family_wise_rate_at_alpha(12, 2027);
}

TEST(CompareVerdictTest, TheFamilyIsEveryRowWithAPValue) {
  std::vector<ComparisonRow> rows(3);
  stats::row_statistics(normal(100, 1, 5, 1), normal(120, 1, 5, 2), rows[0]);
  stats::row_statistics({100}, {100}, rows[1]);  // no p-value: not in the family
  stats::row_statistics(normal(100, 1, 5, 3), normal(100, 1, 5, 4), rows[2]);
  stats::decide(rows, {});
  EXPECT_DOUBLE_EQ(rows[0].p_adjusted, 2 * rows[0].p_value);
  EXPECT_TRUE(std::isnan(rows[1].p_adjusted));
  EXPECT_EQ(rows[0].verdict, Verdict::kSlower);
  EXPECT_EQ(rows[1].verdict, Verdict::kSame);
}

}  // namespace
}  // namespace kscope
