// kscope::compare on synthetic pairs: the verdicts (clearly faster, within noise, bimodal, too
// few runs, one side missing), directions, the join, the environment warnings, bad options.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/sample_comparison.hpp"
#include "kscope/compare.hpp"
#include "kscope/errors.hpp"

namespace kscope {
namespace {

// Normal samples from a fixed seed, by Box-Muller on mt19937's (fully specified) output.
std::vector<double> normal(double mean, double sd, int n, std::uint32_t seed) {
  std::mt19937 gen(seed);
  auto uniform = [&] { return (static_cast<double>(gen()) + 0.5) / 4294967296.0; };
  std::vector<double> v;
  for (int i = 0; i < n; ++i) {
    v.push_back(mean + sd * std::sqrt(-2 * std::log(uniform())) * std::cos(6.283185307179586 * uniform()));
  }
  return v;
}

ComparisonRow verdict_of(const std::vector<double>& base, const std::vector<double>& next,
                         Direction d = Direction::kLowerIsBetter,
                         std::optional<double> threshold = std::nullopt) {
  ComparisonRow row;
  row.direction = d;
  stats::compare_samples(base, next, 0.05, threshold, row);
  return row;
}

TEST(CompareVerdictTest, ClearlyFaster) {
  const auto row = verdict_of(normal(100, 1, 20, 1), normal(80, 1, 20, 2));
  EXPECT_EQ(row.verdict, Verdict::kFaster);
  EXPECT_NEAR(row.ratio, 0.8, 0.01);
  EXPECT_LT(row.ratio_ci_lower, row.ratio);
  EXPECT_GT(row.ratio_ci_upper, row.ratio);
  EXPECT_LT(row.ratio_ci_upper, 0.82);
  EXPECT_LT(row.p_value, 1e-6);
  EXPECT_EQ(row.base_runs, 20u);
}

TEST(CompareVerdictTest, ClearlySlowerBeyondTheThreshold) {
  const auto row = verdict_of(normal(100, 1, 20, 3), normal(120, 1, 20, 4),
                              Direction::kLowerIsBetter, 0.05);
  EXPECT_EQ(row.verdict, Verdict::kSlower);
  EXPECT_TRUE(row.beyond_threshold);
}

TEST(CompareVerdictTest, SignificantButBelowTheThresholdDoesNotFail) {
  // 0.5 % slower with 0.1 % noise: SLOWER, but not beyond a 5 % threshold.
  const auto row = verdict_of(normal(100, 0.1, 30, 5), normal(100.5, 0.1, 30, 6),
                              Direction::kLowerIsBetter, 0.05);
  EXPECT_EQ(row.verdict, Verdict::kSlower);
  EXPECT_FALSE(row.beyond_threshold);
}

TEST(CompareVerdictTest, WithinNoiseIsSame) {
  const auto row = verdict_of(normal(100, 5, 20, 7), normal(101, 5, 20, 8));
  EXPECT_EQ(row.verdict, Verdict::kSame);
  EXPECT_NEAR(row.ratio, 1.01, 0.03);
}

TEST(CompareVerdictTest, BimodalWithTheSameModesIsSame) {
  std::vector<double> base, next;
  for (int i = 0; i < 20; ++i) {
    base.push_back(i % 2 ? 20.0 + 0.01 * i : 10.0 + 0.01 * i);
    next.push_back(i % 2 ? 10.0 + 0.01 * i : 20.0 + 0.01 * i);
  }
  EXPECT_EQ(verdict_of(base, next).verdict, Verdict::kSame);
}

TEST(CompareVerdictTest, BimodalWithSlowRunsIsSlower) {
  // Every third run of NEW takes twice as long: a regression the mean's noise alone would hide
  // (NEW's RSD is above its 30 % change), but BASE is quiet.
  std::vector<double> base = normal(10, 0.05, 30, 9);
  std::vector<double> next = normal(10, 0.05, 30, 10);
  for (std::size_t i = 0; i < next.size(); i += 3) next[i] *= 2;
  const auto row = verdict_of(base, next);
  EXPECT_GT(row.new_rsd_pct, 100 * (row.ratio - 1));
  EXPECT_EQ(row.verdict, Verdict::kSlower);
}

TEST(CompareVerdictTest, BeyondTheNoiseButTooFewRunsIsUnsure) {
  // Three runs a side: the exact U test cannot go below p = 0.1.
  const auto row = verdict_of({100, 101, 102}, {104, 105, 106});
  EXPECT_EQ(row.verdict, Verdict::kUnsure);
  EXPECT_NEAR(row.p_value, 0.1, 1e-12);
}

TEST(CompareVerdictTest, OneRunASide) {
  EXPECT_EQ(verdict_of({100}, {100}).verdict, Verdict::kSame);
  const auto row = verdict_of({100}, {110});
  EXPECT_EQ(row.verdict, Verdict::kUnsure);
  EXPECT_DOUBLE_EQ(row.ratio, 1.1);
  EXPECT_TRUE(std::isnan(row.ratio_ci_lower));
  EXPECT_TRUE(std::isnan(row.p_value));
}

TEST(CompareVerdictTest, HigherIsBetterTurnsTheVerdict) {
  const auto row = verdict_of(normal(100, 1, 20, 11), normal(120, 1, 20, 12),
                              Direction::kHigherIsBetter, 0.05);
  EXPECT_EQ(row.verdict, Verdict::kFaster);
  const auto worse = verdict_of(normal(100, 1, 20, 13), normal(80, 1, 20, 14),
                                Direction::kHigherIsBetter, 0.05);
  EXPECT_EQ(worse.verdict, Verdict::kSlower);
  EXPECT_TRUE(worse.beyond_threshold);
}

TEST(CompareVerdictTest, NoValuesOnASideIsUnsure) {
  const double nan = std::nan("");
  EXPECT_EQ(verdict_of({nan, nan}, {1, 2}).verdict, Verdict::kUnsure);
}

// --- the join -------------------------------------------------------------------------------

struct Series {
  std::string annotation;
  std::string metric;
  std::size_t config;
  std::vector<double> values;
  std::optional<std::string> unit = std::string("ns");
};

Results results_of(const std::vector<Series>& series, const std::vector<int>& config_n,
                   const std::string& gpu = "NVIDIA H200") {
  Results::Data d;
  d.name = "sweep";
  d.parameters = {"n"};
  for (int n : config_n) d.configs.push_back(Config({Value(n)}, {"n"}));
  d.metadata.gpu = gpu;
  d.metadata.kscope_version = "0.1.0";
  d.metadata.tool = "cupti";
  for (const auto& s : series) {
    for (std::size_t r = 0; r < s.values.size(); ++r) {
      RawRow row;
      row.annotation = s.annotation;
      row.metric = s.metric;
      row.config = s.config;
      row.run = r;
      row.value = s.values[r];
      row.unit = s.unit;
      d.raw.push_back(row);
    }
  }
  return Results(std::move(d));
}

const char* kTime = "gpu__time_duration.sum";

TEST(CompareTest, JoinsOnAnnotationMetricAndConfigLabelAndMarksOneSidedRows) {
  // NEW lists its configs in another order: rows join on the label, not the index.
  const Results base = results_of({{"a", kTime, 0, normal(100, 1, 10, 20)},
                                   {"a", kTime, 1, normal(200, 1, 10, 21)},
                                   {"gone", kTime, 0, {5, 5}}},
                                  {1, 2});
  const Results next = results_of({{"a", kTime, 0, normal(150, 1, 10, 22)},
                                   {"a", kTime, 1, normal(100, 1, 10, 23)},
                                   {"added", kTime, 1, {7, 7}}},
                                  {2, 1});
  const Comparison c = compare(base, next);
  ASSERT_EQ(c.rows.size(), 4u);
  EXPECT_EQ(c.rows[0].config, "n=1");
  EXPECT_EQ(c.rows[0].verdict, Verdict::kSame);  // n=1: 100 -> 100 (NEW's config 1)
  EXPECT_NEAR(c.rows[0].ratio, 1.0, 0.03);
  EXPECT_EQ(c.rows[1].config, "n=2");
  EXPECT_EQ(c.rows[1].verdict, Verdict::kFaster);  // n=2: 200 -> 150
  EXPECT_EQ(c.rows[2].annotation, "gone");
  EXPECT_EQ(c.rows[2].verdict, Verdict::kBaseOnly);
  EXPECT_DOUBLE_EQ(c.rows[2].base_value, 5);
  EXPECT_TRUE(std::isnan(c.rows[2].new_value));
  EXPECT_EQ(c.rows[3].annotation, "added");
  EXPECT_EQ(c.rows[3].config, "n=1");
  EXPECT_EQ(c.rows[3].verdict, Verdict::kNewOnly);
  EXPECT_TRUE(c.warnings.empty()) << c.warnings.front();
  EXPECT_FALSE(c.regressed());  // no threshold
}

TEST(CompareTest, ThresholdMakesASlowerRowARegression) {
  const Results base = results_of({{"a", kTime, 0, normal(100, 1, 10, 30)}}, {1});
  const Results next = results_of({{"a", kTime, 0, normal(110, 1, 10, 31)}}, {1});
  CompareOptions o;
  o.threshold = 0.05;
  EXPECT_TRUE(compare(base, next, o).regressed());
  o.threshold = 0.2;
  EXPECT_FALSE(compare(base, next, o).regressed());
}

TEST(CompareTest, WarnsWhenTheEnvironmentsDiffer) {
  const Results base = results_of({{"a", kTime, 0, {1, 2}}}, {1}, "NVIDIA H200");
  const Results next = results_of({{"a", kTime, 0, {1, 2}}}, {1}, "NVIDIA A100-SXM4-80GB");
  const Comparison c = compare(base, next);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_EQ(c.warnings[0],
            "BASE and NEW were measured with different GPUs: BASE 'NVIDIA H200', NEW 'NVIDIA "
            "A100-SXM4-80GB'");
}

TEST(CompareTest, DirectionsFromNamesUnitsAndDeclarations) {
  const CompareOptions none;
  EXPECT_EQ(metric_direction(kTime, std::string("ns"), none), Direction::kLowerIsBetter);
  EXPECT_EQ(metric_direction("dram__bytes_read.sum", std::string("byte"), none),
            Direction::kLowerIsBetter);
  EXPECT_EQ(metric_direction("dram__bytes_read.sum.per_second", std::string("Gbyte/second"),
                             none),
            Direction::kHigherIsBetter);
  EXPECT_EQ(metric_direction("sm__throughput.avg.pct_of_peak_sustained_elapsed",
                             std::string("%"), none),
            Direction::kHigherIsBetter);
  EXPECT_EQ(metric_direction("bandwidth", std::string("GB/s"), none), Direction::kHigherIsBetter);
  EXPECT_FALSE(metric_direction("occupancy_score", std::nullopt, none).has_value());
  CompareOptions declared;
  declared.higher_is_better = {"occupancy_score"};
  declared.lower_is_better = {"bandwidth"};
  EXPECT_EQ(metric_direction("occupancy_score", std::nullopt, declared),
            Direction::kHigherIsBetter);
  EXPECT_EQ(metric_direction("bandwidth", std::string("GB/s"), declared),
            Direction::kLowerIsBetter);
}

TEST(CompareTest, AnUnknownDirectionIsAssumedLowerAndWarnedOnce) {
  const Results base = results_of({{"a", "score", 0, {1, 2}, std::nullopt},
                                   {"b", "score", 0, {1, 2}, std::nullopt}}, {1});
  const Comparison c = compare(base, base);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_EQ(c.warnings[0],
            "metric 'score' has no known direction: lower is taken as better; declare it with "
            "higher_is_better or lower_is_better (CLI: --higher-is-better, --lower-is-better)");
  EXPECT_FALSE(c.rows[0].direction_declared);
  EXPECT_EQ(c.rows[0].verdict, Verdict::kSame);
}

TEST(CompareTest, BadOptionsAreInvalidArguments) {
  const Results r = results_of({{"a", kTime, 0, {1, 2}}}, {1});
  CompareOptions o;
  o.alpha = 0;
  try {
    (void)compare(r, r, o);
    FAIL() << "no exception";
  } catch (const InvalidArgument& e) {
    EXPECT_STREQ(e.what(),
                 "Invalid alpha 0. Expected a significance level between 0 and 1, e.g. 0.05.");
  }
  o = {};
  o.threshold = -0.5;
  try {
    (void)compare(r, r, o);
    FAIL() << "no exception";
  } catch (const InvalidArgument& e) {
    EXPECT_STREQ(e.what(), "Invalid threshold -0.5. Expected a fraction >= 0, e.g. 0.05 for 5 %.");
  }
  o = {};
  o.higher_is_better = {"x"};
  o.lower_is_better = {"x"};
  try {
    (void)compare(r, r, o);
    FAIL() << "no exception";
  } catch (const InvalidArgument& e) {
    EXPECT_STREQ(e.what(),
                 "Metric 'x' is declared both higher-is-better and lower-is-better; declare it "
                 "once.");
  }
}

}  // namespace
}  // namespace kscope
