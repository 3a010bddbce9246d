// kscope::compare on synthetic results: the join (of two results and of sets by session),
// the filters, directions, the warnings (environments, unfinished sessions, means without a
// ratio) and every error of the options, the declarations and the filters. The verdicts of
// rows: compare_verdict_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "kscope/compare.hpp"
#include "kscope/errors.hpp"
#include "support/error_text.hpp"
#include "support/normal_samples.hpp"

namespace kscope {
namespace {

using testing::normal;

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

Results with_definition(const Results& r, const std::string& definition) {
  Results::Data d = r.data();
  d.metadata.duration_definition = definition;
  return Results(std::move(d));
}

TEST(CompareTest, WarnsWhenTheDurationsHaveDifferentDefinitions) {
  const Results plain = results_of({{"a", kTime, 0, {1, 2}}}, {1});
  const Comparison c = compare(with_definition(plain, "activity"), with_definition(plain, "ncu"));
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_EQ(c.warnings[0],
            "BASE and NEW were measured with different duration definitions "
            "(docs/tools/cupti.md#durations): BASE 'activity', NEW 'ncu'");
  EXPECT_TRUE(compare(with_definition(plain, "profiler"), with_definition(plain, "profiler")).warnings.empty());
  // A file written before the definition was recorded says nothing either way.
  EXPECT_TRUE(compare(plain, with_definition(plain, "ncu import")).warnings.empty());
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

std::string compare_error(const Results& base, const Results& next, const CompareOptions& o) {
  return testing::error_text<InvalidArgument>([&] { (void)compare(base, next, o); });
}

TEST(CompareTest, BadOptionsAreInvalidArgumentsNamingTheValue) {
  const Results r = results_of({{"a", kTime, 0, {1, 2}}}, {1});
  const auto error = [&](auto set) {
    CompareOptions o;
    set(o);
    return compare_error(r, r, o);
  };
  EXPECT_EQ(error([](CompareOptions& o) { o.alpha = 0; }),
            "Invalid alpha 0. Expected a significance level between 0 and 1, e.g. 0.05.");
  EXPECT_EQ(error([](CompareOptions& o) { o.threshold = -0.5; }),
            "Invalid threshold '-0.5': negative. Expected a percentage such as 5% or a fraction "
            "such as 0.05.");
  // A number of 1 or more is 100 % or more: Python's threshold=5 is refused as --threshold 5 is.
  EXPECT_EQ(error([](CompareOptions& o) { o.threshold = 5; }),
            "Invalid threshold '5': a bare number is a fraction of BASE, so 5 is 500%; did you "
            "mean 5%?");
  EXPECT_EQ(error([](CompareOptions& o) { o.noise = 2; }),
            "Invalid noise '2': a bare number is a fraction of BASE, so 2 is 200%; did you mean "
            "2%?");
  EXPECT_EQ(error([](CompareOptions& o) { o.noise = std::nan(""); }),
            "Invalid noise 'nan'. Expected a percentage such as 5% or a fraction such as 0.05.");
  EXPECT_EQ(error([](CompareOptions& o) { o.threshold = 0.005; }),
            "Invalid threshold 0.5%: below the noise threshold of 1%, within which a change is "
            "SAME and never fails; lower the noise threshold too (CLI --noise, Python noise=).");
  EXPECT_EQ(error([](CompareOptions& o) {
              o.threshold = 0.005;
              o.noise = 0.005;
            }),
            "no error");
  EXPECT_EQ(error([](CompareOptions& o) {
              o.higher_is_better = {"x"};
              o.lower_is_better = {"x"};
            }),
            "Metric 'x' is declared both higher-is-better and lower-is-better; declare it once.");
  EXPECT_EQ(error([](CompareOptions& o) { o.configs = {"n"}; }),
            "Invalid config filter 'n'. Expected a parameter and a value, such as n=1024.");
}

TEST(CompareTest, ThresholdAndNoiseTextsAsAUserWritesThem) {
  EXPECT_DOUBLE_EQ(parse_threshold("5%"), 0.05);
  EXPECT_DOUBLE_EQ(parse_threshold("0.05"), 0.05);
  EXPECT_DOUBLE_EQ(parse_noise("0.5%"), 0.005);
  EXPECT_DOUBLE_EQ(parse_noise("0"), 0.0);
  const auto error = [](const std::string& text) {
    return testing::error_text<InvalidArgument>([&] { (void)parse_threshold(text); });
  };
  EXPECT_EQ(error("fast"),
            "Invalid threshold 'fast'. Expected a percentage such as 5% or a fraction such as 0.05.");
  EXPECT_EQ(error("%"),
            "Invalid threshold '%'. Expected a percentage such as 5% or a fraction such as 0.05.");
  EXPECT_EQ(error(""),
            "Invalid threshold '': empty. Expected a percentage such as 5% or a fraction such as "
            "0.05.");
  EXPECT_EQ(error("-5%"),
            "Invalid threshold '-5%': negative. Expected a percentage such as 5% or a fraction "
            "such as 0.05.");
  EXPECT_EQ(error("5"),
            "Invalid threshold '5': a bare number is a fraction of BASE, so 5 is 500%; did you "
            "mean 5%?");
  EXPECT_EQ(error("1"),
            "Invalid threshold '1': a bare number is a fraction of BASE, so 1 is 100%; did you "
            "mean 1%?");
  EXPECT_EQ(error("150%"), "Invalid threshold '150%': it must be below 100%.");
  EXPECT_EQ(testing::error_text<InvalidArgument>([] { (void)parse_noise("3"); }),
            "Invalid noise '3': a bare number is a fraction of BASE, so 3 is 300%; did you mean "
            "3%?");
}

TEST(CompareTest, FiltersByAnnotationMetricAndConfig) {
  const Results r = results_of({{"add", kTime, 0, {1, 2}},
                                {"add", kTime, 1, {1, 2}},
                                {"add", kTime, 2, {1, 2}},
                                {"mul", kTime, 0, {1, 2}},
                                {"add", "bandwidth", 0, {1, 2}, std::string("GB/s")}},
                               {1, 2, 4});
  const auto keys = [&](const CompareOptions& o) {
    std::vector<std::string> out;
    for (const auto& row : compare(r, r, o).rows) {
      out.push_back(row.annotation + " " + row.config + " " + row.metric);
    }
    return out;
  };
  CompareOptions o;
  o.annotations = {"mu*"};
  EXPECT_EQ(keys(o), std::vector<std::string>{"mul n=1 gpu__time_duration.sum"});
  o = {};
  o.metrics = {"band*"};
  EXPECT_EQ(keys(o), std::vector<std::string>{"add n=1 bandwidth"});
  o = {};
  o.annotations = {"add"};
  o.metrics = {kTime};
  o.configs = {"n=2", "n=4"};  // values of one parameter are alternatives
  EXPECT_EQ(keys(o), (std::vector<std::string>{"add n=2 gpu__time_duration.sum",
                                               "add n=4 gpu__time_duration.sum"}));
}

// A declared metric or a filter that matches nothing in BASE or NEW names what there is.
TEST(CompareTest, NamesThatMatchNothingAreErrorsNamingWhatThereIs) {
  const Results r = results_of({{"add", kTime, 0, {1, 2}},
                                {"mul", kTime, 1, {1, 2}},
                                {"add", "bandwidth", 0, {1, 2}, std::string("GB/s")}},
                               {1, 2});
  const std::vector<std::pair<CompareOptions, std::string>> cases = [] {
    std::vector<std::pair<CompareOptions, std::string>> c(6);
    c[0].first.higher_is_better = {"bandwith"};
    c[0].second = "Metric 'bandwith' declared higher-is-better is not a metric of BASE or NEW "
                  "(their metrics: bandwidth, gpu__time_duration.sum).";
    c[1].first.lower_is_better = {"bytes"};
    c[1].second = "Metric 'bytes' declared lower-is-better is not a metric of BASE or NEW (their "
                  "metrics: bandwidth, gpu__time_duration.sum).";
    c[2].first.annotations = {"div"};
    c[2].second = "annotation filter 'div' matches no annotation of BASE or NEW (their "
                  "annotations: add, mul).";
    c[3].first.metrics = {"dram*"};
    c[3].second = "metric filter 'dram*' matches no metric of BASE or NEW (their metrics: "
                  "bandwidth, gpu__time_duration.sum).";
    c[4].first.configs = {"m=1"};
    c[4].second = "config filter 'm=1': BASE and NEW have no parameter 'm' (their parameters: n).";
    c[5].first.configs = {"n=3"};
    c[5].second = "config filter 'n=3' matches no config of BASE or NEW (their values of 'n': 1, "
                  "2).";
    return c;
  }();
  for (const auto& [options, message] : cases) EXPECT_EQ(compare_error(r, r, options), message);
}

TEST(CompareTest, AnUnfinishedSessionOnASideIsWarnedAboutNamingTheSide) {
  const Results done = results_of({{"a", kTime, 0, {1, 2}}, {"a", kTime, 1, {1, 2}}}, {1, 2});
  Results::Data d = results_of({{"a", kTime, 0, {1, 2}}}, {1, 2}).data();
  d.complete = false;
  d.journal_path = "out/journal-sweep-0.jsonl";
  const Results unfinished(std::move(d));
  const Comparison c = compare(unfinished, done);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_EQ(c.warnings[0],
            "BASE is the result of an unfinished session (journal 'out/journal-sweep-0.jsonl'): "
            "the rows it had not measured yet are NEW_ONLY");
  EXPECT_EQ(c.rows[1].verdict, Verdict::kNewOnly);
  const Comparison other = compare(done, unfinished);
  EXPECT_EQ(other.warnings, std::vector<std::string>{
                                "NEW is the result of an unfinished session (journal "
                                "'out/journal-sweep-0.jsonl'): the rows it had not measured yet "
                                "are BASE_ONLY"});
}

TEST(CompareTest, MeansWithoutARatioAreWarnedAboutNamingTheFirstRowOfTheMetric) {
  const Results base = results_of({{"a", "delta", 0, {-1, -1}, std::nullopt},
                                   {"a", "delta", 1, {-2, -2}, std::nullopt},
                                   {"a", "delta", 2, {3, 3}, std::nullopt},
                                   {"a", kTime, 0, {0, 0}}},
                                  {1, 2, 3});
  const Results next = results_of({{"a", "delta", 0, {1, 1}, std::nullopt},
                                   {"a", "delta", 1, {2, 2}, std::nullopt},
                                   {"a", "delta", 2, {-3, -3}, std::nullopt},
                                   {"a", kTime, 0, {0, 0}}},
                                  {1, 2, 3});
  CompareOptions o;
  o.higher_is_better = {"delta"};
  const Comparison c = compare(base, next, o);
  ASSERT_EQ(c.warnings.size(), 1u);  // equal means (0 and 0) have no ratio and need none
  EXPECT_EQ(c.warnings[0],
            "no ratio for annotation 'a', config 'n=1', metric 'delta': BASE's mean is -1 (a ratio "
            "needs positive means), so the row is UNSURE (and 2 more rows of 'delta')");
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(c.rows[i].verdict, Verdict::kUnsure);
    EXPECT_TRUE(std::isnan(c.rows[i].ratio));
  }
  EXPECT_EQ(c.rows[3].verdict, Verdict::kSame);
}

Results named(const std::string& name, double scale) {
  Results::Data d = results_of({{"k", kTime, 0, normal(100 * scale, 0.1, 12, 3)}}, {1}).data();
  d.name = name;
  return Results(std::move(d));
}

TEST(CompareTest, SetsOfResultsJoinBySessionNameAsOneFamily) {
  std::vector<Results> base;
  base.push_back(named("vadd", 1.0));
  base.push_back(named("gone", 1.0));
  base.push_back(named("matmul", 1.0));
  std::vector<Results> next;
  next.push_back(named("matmul", 1.2));
  next.push_back(named("vadd", 1.0));
  next.push_back(named("added", 1.0));
  CompareOptions o;
  o.threshold = 0.05;
  const Comparison c = compare(base, next, o);
  ASSERT_EQ(c.rows.size(), 4u);
  // Sessions by name: gone, matmul, vadd (both sides), then added (NEW only).
  EXPECT_EQ(c.rows[0].session, "gone");
  EXPECT_EQ(c.rows[0].verdict, Verdict::kBaseOnly);
  EXPECT_EQ(c.rows[1].session, "matmul");
  EXPECT_EQ(c.rows[1].verdict, Verdict::kSlower);
  EXPECT_TRUE(c.rows[1].beyond_threshold);
  EXPECT_EQ(c.rows[2].session, "vadd");
  EXPECT_EQ(c.rows[3].session, "added");
  EXPECT_EQ(c.rows[3].verdict, Verdict::kNewOnly);
  EXPECT_DOUBLE_EQ(c.rows[1].p_adjusted, std::min(1.0, 2 * c.rows[1].p_value));  // 2 with a p
  EXPECT_EQ(c.warnings, (std::vector<std::string>{"session 'gone' is only in BASE",
                                                  "session 'added' is only in NEW"}));
  EXPECT_TRUE(c.regressed());
  std::vector<Results> twice;
  twice.push_back(named("vadd", 1.0));
  twice.push_back(named("vadd", 1.0));
  EXPECT_EQ(testing::error_text<InvalidArgument>([&] { (void)compare(twice, next); }),
            "BASE has two results of session 'vadd'; compare them one pair at a time");
}

}  // namespace
}  // namespace kscope
