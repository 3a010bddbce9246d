#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <tuple>

#include "core/transformation.hpp"
#include "kscope/errors.hpp"

namespace kscope {
namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

ExtractedRecord rec(const std::string& a, std::size_t config, std::size_t run, std::vector<double> v,
                    bool failed = false) {
  ExtractedRecord r;
  r.annotation = a;
  r.kernel = "k_" + a;
  r.run = RunId{config, run, false};
  r.units.assign(v.size(), std::string("ns"));
  r.values = std::move(v);
  r.failed = failed;
  return r;
}

const std::vector<Config> kConfigs = configs({100, 200}, "n");

TEST(TransformationTest, RawRowsExplodeMetricsThenAppendDerivedRows) {
  DeriveFn derive = [](const std::vector<double>& m, const Config& c) {
    return std::vector<DerivedValue>{{"per_n", m[0] / c.get<double>(0), std::string("ns/elem")}};
  };
  const auto rows = build_raw_rows({rec("a", 0, 0, {10, 1}), rec("a", 1, 0, {40, 2})},
                                   {kTimeMetric, "other"}, derive, kConfigs);
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_EQ(rows[0].metric, kTimeMetric);
  EXPECT_EQ(rows[1].metric, "other");
  EXPECT_EQ(rows[2].config, 1u);
  EXPECT_EQ(rows[4].metric, "per_n");
  EXPECT_DOUBLE_EQ(rows[4].value, 0.1);
  EXPECT_DOUBLE_EQ(rows[5].value, 0.2);
  EXPECT_EQ(rows[5].unit, "ns/elem");
  EXPECT_EQ(rows[5].kernel, "k_a");
}

TEST(TransformationTest, ADerivedMetricNamedLikeAMeasuredOneIsRefused) {
  // Merged, the two made one row group with NumRuns 2 for runs=1.
  DeriveFn same = [](const std::vector<double>& m, const Config&) {
    return std::vector<DerivedValue>{{std::string(kTimeMetric), m[0] / 2, std::string("ns")}};
  };
  try {
    (void)build_raw_rows({rec("a", 0, 0, {10})}, {kTimeMetric}, same, kConfigs);
    FAIL();
  } catch (const InvalidArgument& e) {
    EXPECT_STREQ(e.what(),
                 "derive_metric returned a value named 'gpu__time_duration.sum', which is a "
                 "measured metric of this session. Give derived metrics names of their own.");
  }
  DeriveFn twice = [](const std::vector<double>& m, const Config&) {
    return std::vector<DerivedValue>{{"bw", m[0], std::nullopt}, {"bw", 2 * m[0], std::nullopt}};
  };
  try {
    (void)build_raw_rows({rec("a", 0, 0, {10})}, {kTimeMetric}, twice, kConfigs);
    FAIL();
  } catch (const InvalidArgument& e) {
    EXPECT_STREQ(e.what(),
                 "derive_metric returned two values named 'bw' for one run. Give each derived "
                 "metric its own name.");
  }
}

TEST(TransformationTest, DerivedMetricOfFailedRunIsNaNWithKnownNames) {
  DeriveFn derive = [](const std::vector<double>& m, const Config&) {
    return std::vector<DerivedValue>{{"x2", 2 * m[0], std::nullopt}, {"x3", 3 * m[0], std::string("u")}};
  };
  const auto rows = build_raw_rows({rec("a", 0, 0, {kNaN}, true), rec("a", 0, 1, {5})}, {kTimeMetric},
                                   derive, kConfigs);
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_EQ(rows[2].metric, "x2");
  EXPECT_TRUE(std::isnan(rows[2].value));
  EXPECT_FALSE(rows[2].unit.has_value());
  EXPECT_EQ(rows[3].metric, "x3");
  EXPECT_EQ(rows[3].unit, "u");
  EXPECT_DOUBLE_EQ(rows[4].value, 10);
}

TEST(TransformationTest, AggregateGroupsInFirstAppearanceOrder) {
  const auto raw = build_raw_rows({rec("b", 0, 0, {1}), rec("b", 0, 1, {3}), rec("a", 0, 0, {10}),
                                   rec("a", 0, 1, {30})},
                                  {kTimeMetric}, {}, kConfigs);
  const auto p = aggregate(raw, "");
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].annotation, "b");
  EXPECT_DOUBLE_EQ(p[0].avg, 2);
  EXPECT_DOUBLE_EQ(p[0].stddev, std::sqrt(2.0));
  EXPECT_EQ(p[0].num_runs, 2u);
  EXPECT_EQ(p[0].kernel, "k_b");
  EXPECT_EQ(p[0].unit, "ns");
  EXPECT_FALSE(p[0].normalized.has_value());
  EXPECT_FALSE(p[0].normalization_value.has_value());
  EXPECT_DOUBLE_EQ(p[1].avg, 20);
}

TEST(TransformationTest, AggregateGathersRowsOfAGroupWhereverTheyAre) {
  // Two metrics of two annotations, their rows interleaved and out of config order: each group
  // takes its values in table order, groups and geomeans follow their series.
  const auto raw = build_raw_rows({rec("b", 1, 0, {1, 100}), rec("a", 0, 0, {4, 40}),
                                   rec("b", 0, 0, {2, 200}), rec("a", 0, 1, {6, 60}),
                                   rec("b", 1, 1, {3, 300}), rec("a", 1, 0, {16, 160})},
                                  {kTimeMetric, "bytes"}, {}, kConfigs);
  const auto p = aggregate(raw, "");
  ASSERT_EQ(p.size(), 8u);
  const std::vector<std::tuple<std::string, std::string, std::size_t, double, std::size_t>> want{
      {"b", kTimeMetric, 1, 2, 2}, {"b", "bytes", 1, 200, 2}, {"a", kTimeMetric, 0, 5, 2},
      {"a", "bytes", 0, 50, 2},    {"b", kTimeMetric, 0, 2, 1}, {"b", "bytes", 0, 200, 1},
      {"a", kTimeMetric, 1, 16, 1}, {"a", "bytes", 1, 160, 1}};
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(p[i].annotation, std::get<0>(want[i])) << i;
    EXPECT_EQ(p[i].metric, std::get<1>(want[i])) << i;
    EXPECT_EQ(p[i].config, std::get<2>(want[i])) << i;
    EXPECT_DOUBLE_EQ(p[i].avg, std::get<3>(want[i])) << i;
    EXPECT_EQ(p[i].num_runs, std::get<4>(want[i])) << i;
  }
  EXPECT_DOUBLE_EQ(p[0].min, 1);
  EXPECT_DOUBLE_EQ(p[0].max, 3);
  EXPECT_DOUBLE_EQ(p[3].q1, 45);  // quantile of {40, 60}
  EXPECT_NEAR(p[0].geomean, 2.0, 1e-12);           // b, time: configs 1 and 0, avgs 2 and 2
  EXPECT_NEAR(p[2].geomean, std::sqrt(80.0), 1e-12);  // a, time: 5 and 16
  EXPECT_NEAR(p[7].geomean, std::sqrt(8000.0), 1e-12);  // a, bytes: 50 and 160

  const auto n = aggregate(raw, "a");  // b's config-1 rows and a's: baselines of their metric
  ASSERT_EQ(n.size(), 8u);
  EXPECT_DOUBLE_EQ(n[0].avg, 2.0 / 16);
  EXPECT_DOUBLE_EQ(*n[1].normalization_value, 160);
  EXPECT_DOUBLE_EQ(n[4].avg, 2.0 / 5);
  EXPECT_DOUBLE_EQ(n[5].avg, 200.0 / 50);
  EXPECT_NEAR(n[4].geomean, std::sqrt(2.0 / 16 * 2.0 / 5), 1e-12);
}

TEST(TransformationTest, NumRunsCountsOnlyMeasuredRuns) {
  const auto raw = build_raw_rows({rec("a", 0, 0, {kNaN}, true), rec("a", 0, 1, {4}), rec("a", 0, 2, {6})},
                                  {kTimeMetric}, {}, kConfigs);
  const auto p = aggregate(raw, "");
  EXPECT_EQ(p[0].num_runs, 2u);
  EXPECT_DOUBLE_EQ(p[0].avg, 5);
}

TEST(TransformationTest, NormalisationDividesAvgOnlyAndDropsRowsWithoutBaseline) {
  const auto raw = build_raw_rows({rec("base", 0, 0, {10}), rec("base", 0, 1, {10}), rec("new", 0, 0, {5}),
                                   rec("new", 0, 1, {15}), rec("new", 1, 0, {7})},
                                  {kTimeMetric}, {}, kConfigs);
  const auto p = aggregate(raw, "base");
  ASSERT_EQ(p.size(), 2u);  // new @ config 1 has no baseline: dropped (inner join)
  EXPECT_DOUBLE_EQ(p[0].avg, 1.0);
  EXPECT_EQ(p[1].annotation, "new");
  EXPECT_DOUBLE_EQ(p[1].avg, 1.0);  // mean 10 / 10
  EXPECT_DOUBLE_EQ(*p[1].normalization_value, 10);
  EXPECT_EQ(*p[1].normalized, "base");
  EXPECT_DOUBLE_EQ(p[1].min, 5);  // MinValue stays unnormalised
  // t(0.975, 1) = 12.7062 (two runs)
  EXPECT_NEAR(p[1].ci95_lower, 10 - 12.706205 * std::sqrt(50.0) / std::sqrt(2.0), 1e-4);
  EXPECT_DOUBLE_EQ(p[1].median, 10);  // Median stays unnormalised too
}

TEST(TransformationTest, UnknownBaselineListsAnnotations) {
  const auto raw = build_raw_rows({rec("a", 0, 0, {1}), rec("b", 0, 0, {1})}, {kTimeMetric}, {}, kConfigs);
  try {
    (void)aggregate(raw, "torch");
    FAIL();
  } catch (const InvalidArgument& e) {
    EXPECT_STREQ(e.what(), "normalize_against: Annotation 'torch' not found in data. The annotations are: 'a', 'b'.");
  }
}

TEST(TransformationTest, GeomeanOverConfigsOfOneSeriesAfterNormalisation) {
  const auto raw = build_raw_rows({rec("a", 0, 0, {2}), rec("a", 1, 0, {8}), rec("b", 0, 0, {1}),
                                   rec("b", 1, 0, {1})},
                                  {kTimeMetric}, {}, kConfigs);
  auto p = aggregate(raw, "");
  EXPECT_NEAR(p[0].geomean, 4.0, 1e-12);
  EXPECT_NEAR(p[1].geomean, 4.0, 1e-12);
  EXPECT_NEAR(p[2].geomean, 1.0, 1e-12);
  p = aggregate(raw, "b");
  EXPECT_NEAR(p[0].geomean, 4.0, 1e-12);  // 2/1 and 8/1
}

}  // namespace
}  // namespace kscope
