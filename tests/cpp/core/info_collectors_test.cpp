// Info collectors: when the session calls them (docs/info-collectors.md, "Scopes"), what a
// failing one does, the checks of their names, and their columns in the raw and processed tables.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <stdexcept>

#include "core/info_columns.hpp"
#include "core/session.hpp"
#include "core/transformation.hpp"
#include "fakes.hpp"
#include "support/info_sample.hpp"
#include "kscope/annotation.hpp"
#include "kscope/info_collector.hpp"
#include "kscope/profile.hpp"

namespace kscope {
namespace {
using testing::FakeCollector;
using testing::FakeEnvironment;
using testing::RecordingSink;

struct Harness {
  FakeCollector collector;
  FakeEnvironment env;
  RecordingSink sink;
  Options options;
  std::vector<std::string> warnings;
  std::vector<std::string> lines;

  Harness() {
    options.verbosity = Verbosity::kSilent;
    options.on_warning = [this](std::string_view w) { warnings.emplace_back(w); };
    options.log = [this](std::string_view l) { lines.emplace_back(l); };
  }
  Session::Output run(const std::vector<Config>& cs, const Benchmark& fn) {
    Logger log(options);
    Session session(collector, env, &sink, log);
    SessionInfo info{"t", 0, cs.size(), &options, 0, "/tmp/"};
    return session.run(info, cs, fn);
  }
};

// Two annotations per run, each launching one "kernel".
Benchmark two_annotations(FakeCollector& collector) {
  return [&collector](const Config& c) {
    for (const char* name : {"add", "mul"}) {
      Annotation a(name);
      collector.launch(std::string(name) + "_kernel", 100.0 * (c.index() + 1));
    }
  };
}

struct Calls {
  int once = 0;
  std::vector<std::int64_t> config;
  std::vector<std::int64_t> run;
  std::vector<std::string> annotation;
};

std::vector<InfoCollector> counting(Calls& calls) {
  return {
      InfoCollector::once("o", [&] { return ++calls.once; }),
      InfoCollector::per_config("c", [&](const Config& c) {
        calls.config.push_back(c.get<std::int64_t>(0));
        return c.get<double>(0) * 2;
      }),
      InfoCollector::per_run("r", [&](const Config& c) {
        calls.run.push_back(c.get<std::int64_t>(0));
        return static_cast<double>(calls.run.size());
      }),
      InfoCollector::per_annotation("a", [&](std::string_view a, const Config& c) {
        calls.annotation.push_back(std::string(a) + "@" + std::to_string(c.get<std::int64_t>(0)));
        return static_cast<double>(calls.annotation.size());
      }),
  };
}

TEST(InfoCollectorSessionTest, CallCountsPerScope) {
  Harness h;
  Calls calls;
  h.options.runs = 3;
  h.options.warmup_runs = 1;  // warm-up runs call no RUN or ANNOTATION collector
  h.options.info_collectors = counting(calls);
  const auto out = h.run(configs({512, 1024}), two_annotations(h.collector));
  EXPECT_EQ(calls.once, 1);
  EXPECT_EQ(calls.config, (std::vector<std::int64_t>{512, 1024}));
  EXPECT_EQ(calls.run, (std::vector<std::int64_t>{512, 512, 512, 1024, 1024, 1024}));
  ASSERT_EQ(calls.annotation.size(), 12u);
  EXPECT_EQ(calls.annotation[0], "add@512");
  EXPECT_EQ(calls.annotation[1], "mul@512");
  EXPECT_EQ(calls.annotation[11], "mul@1024");
  EXPECT_TRUE(h.warnings.empty());

  ASSERT_EQ(out.runs.size(), 6u);
  const RunLog& last = out.runs[5];  // config 1, run 2
  ASSERT_EQ(last.info.size(), 4u);
  EXPECT_EQ(last.info[0], InfoValue(1));
  EXPECT_EQ(last.info[1], InfoValue(2048));
  EXPECT_EQ(last.info[2], InfoValue(6));
  EXPECT_TRUE(last.info[3].empty());  // ANNOTATION values are per annotation
  ASSERT_EQ(last.annotation_info.size(), 2u);
  EXPECT_EQ(last.annotation_info[0].annotation, "add");
  EXPECT_EQ(last.annotation_info[0].values[3], InfoValue(11));
  EXPECT_EQ(last.annotation_info[1].values[3], InfoValue(12));
  // The journal gets the values with the runs.
  ASSERT_EQ(h.sink.runs.size(), 6u);
  EXPECT_EQ(h.sink.runs[5].info, last.info);
}

TEST(InfoCollectorSessionTest, ConfigCollectorsRunBeforeTheConfigsRunsAndRunCollectorsBeforeEach) {
  Harness h;
  std::vector<std::string> events;
  h.env.events = &events;
  h.options.runs = 2;
  h.options.warmup_runs = 1;
  h.options.info_collectors = {
      InfoCollector::per_config("c", [&](const Config&) { events.push_back("config"); return 0; }),
      InfoCollector::per_run("r", [&](const Config&) { events.push_back("run"); return 0; }),
  };
  (void)h.run(configs({1}), [&](const Config&) { events.push_back("fn"); });
  // RUN collectors come before the run's environment (thermal guard, cache flush).
  EXPECT_EQ(events, (std::vector<std::string>{"config", "env before", "fn", "run", "env before",
                                              "fn", "run", "env before", "fn"}));
}

TEST(InfoCollectorSessionTest, AnnotationCollectorsRunBeforeTheAnnotationOpens) {
  Harness h;
  std::vector<std::string> open_during_call;
  h.options.info_collectors = {InfoCollector::per_annotation(
      "a", [&](std::string_view, const Config&) {
        open_during_call.push_back(current_annotation());
        h.collector.launch("collector_kernel", 1.0);  // not attributed: nothing is open yet
        return 0;
      })};
  const auto out = h.run(configs({1}), two_annotations(h.collector));
  EXPECT_EQ(open_during_call, (std::vector<std::string>{"", ""}));
  ASSERT_EQ(out.records.size(), 2u);
  EXPECT_EQ(out.records[0].kernel, "add_kernel");
}

TEST(InfoCollectorSessionTest, ReplayedRunsCallRunAndAnnotationCollectorsOnce) {
  Harness h;
  Calls calls;
  h.collector.passes = 3;  // a counter metric needing three passes
  h.options.runs = 2;
  h.options.info_collectors = counting(calls);
  const auto out = h.run(configs({7}), two_annotations(h.collector));
  EXPECT_EQ(calls.run.size(), 2u);
  EXPECT_EQ(calls.annotation.size(), 4u);
  ASSERT_EQ(out.runs.size(), 2u);
  EXPECT_EQ(out.runs[1].annotation_info.size(), 2u);
}

TEST(InfoCollectorSessionTest, FailingCollectorWarnsOncePerCallAndMissesOnlyItsRuns) {
  Harness h;
  h.options.runs = 3;
  h.options.info_collectors = {
      InfoCollector::per_run("flaky", [](const Config& c) -> InfoValue {
        if (c.index() == 0) throw std::runtime_error("sensor busy");
        return 5;
      }),
      InfoCollector::per_annotation("ann", [](std::string_view a, const Config&) -> InfoValue {
        if (a == "mul") throw InfoCollectorError("ValueError", "no mul");
        return std::string(a);
      }),
      InfoCollector::once("fine", [] { return "ok"; }),
  };
  const auto out = h.run(configs({1, 2}), two_annotations(h.collector));
  EXPECT_EQ(h.warnings,
            (std::vector<std::string>{
                "Info collector 'flaky' (run scope) raised std::runtime_error: sensor busy. Its "
                "column will be None for failed runs.",
                "Info collector 'ann' (annotation scope) raised ValueError: no mul. Its column "
                "will be None for failed runs."}));
  ASSERT_EQ(out.runs.size(), 6u);
  EXPECT_TRUE(out.runs[0].info[0].empty());
  EXPECT_EQ(out.runs[3].info[0], InfoValue(5));
  EXPECT_EQ(out.runs[3].info[2], InfoValue("ok"));
  EXPECT_EQ(out.runs[3].annotation_info[0].values[1], InfoValue("add"));
  EXPECT_TRUE(out.runs[3].annotation_info[1].values[1].empty());
  EXPECT_EQ(out.records.size(), 12u);  // profiling went on

  // The next profile() call warns again.
  h.warnings.clear();
  (void)h.run(configs({1}), two_annotations(h.collector));
  EXPECT_EQ(h.warnings.size(), 2u);
}

TEST(InfoCollectorSessionTest, DebugPrintsCollectedValues) {
  Harness h;
  h.options.verbosity = Verbosity::kDebug;
  h.options.interactive = false;
  h.options.info_collectors = {
      InfoCollector::per_annotation("ann", [](std::string_view a, const Config&) { return a; })};
  (void)h.run(configs({1}), two_annotations(h.collector));
  bool seen = false;
  for (const auto& l : h.lines) seen = seen || l == "[kscope] Collected ann (mul): mul\n";
  EXPECT_TRUE(seen);
}

TEST(InfoCollectorSessionTest, ExceptionNotDerivedFromStdExceptionEndsProfiling) {
  Harness h;
  int entries = 0;
  h.options.runs = 2;
  h.options.info_collectors = {
      InfoCollector::per_run("r", [&](const Config&) -> InfoValue {
        if (entries > 0) throw 42;  // a binding's "stop now" (KeyboardInterrupt)
        return 1;
      }),
      InfoCollector::per_annotation("a", [&](std::string_view, const Config&) { return ++entries; }),
  };
  EXPECT_THROW((void)h.run(configs({1}), two_annotations(h.collector)), int);
  EXPECT_TRUE(h.sink.closed);
  EXPECT_EQ(entries, 2);
  // The session's hook is gone: a later annotation calls no collector.
  AnnotationRegistry::instance().start_run(RunId{0, 0, false});
  { Annotation a("after"); }
  (void)AnnotationRegistry::instance().finish_run();
  EXPECT_EQ(entries, 2);
}

TEST(InfoCollectorSessionTest, NoCollectorsLeaveRunLogsEmpty) {
  Harness h;
  const auto out = h.run(configs({1}), two_annotations(h.collector));
  EXPECT_TRUE(out.runs[0].info.empty());
  EXPECT_TRUE(out.runs[0].annotation_info.empty());
}

// ---------------------------------------------------------------------------------------------
// Validation

std::string validation_error(const std::vector<InfoCollector>& cs,
                             const std::vector<std::string>& params = {}) {
  try {
    validate_info_collectors(cs, params, "bench");
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "(no error)";
}

InfoCollector run_collector(const std::string& name) {
  return InfoCollector::per_run(name, [](const Config&) { return 1; });
}

TEST(InfoCollectorValidationTest, DuplicateNamesAlsoAcrossScopes) {
  EXPECT_EQ(validation_error({InfoCollector::once("x", [] { return 1; }), run_collector("x")}),
            "Duplicate info collector name 'x'. Each collector must have a unique name (the "
            "function name becomes the column name).");
}

TEST(InfoCollectorValidationTest, ReservedNames) {
  for (const char* name : {"Kernel", "GPU", "Value", "Annotation", "AvgValue", "Geomean",
                           "CI95_Lower", "Normalized", "StableMeasurement", "Throttled"}) {
    const std::string msg = validation_error({run_collector(name)});
    EXPECT_EQ(msg.rfind("Info collector name '" + std::string(name) +
                            "' collides with a reserved profiler column. Reserved names: "
                            "['Annotation', 'AvgValue', 'CI95_Lower', ",
                        0),
              0u)
        << msg;
  }
  EXPECT_NE(validation_error({run_collector("PowerW")})
                .find("'PowerW' collides with a reserved profiler column through its column "
                      "'PowerW_Avg'"),
            std::string::npos);
  // A ONCE collector has no aggregate columns.
  EXPECT_EQ(validation_error({InfoCollector::once("PowerW", [] { return 1; })}), "(no error)");
}

TEST(InfoCollectorValidationTest, AggregateColumnOfAnotherCollector) {
  EXPECT_EQ(validation_error({run_collector("t"), InfoCollector::once("t_Max", [] { return 1; })}),
            "Info collector name 't_Max' collides with the column 't_Max' of info collector 't' "
            "(an aggregate of its values). Rename one of the collectors.");
}

TEST(InfoCollectorValidationTest, ParameterNames) {
  EXPECT_EQ(validation_error({run_collector("n")}, {"n", "dtype"}),
            "Info collector name 'n' collides with a parameter of 'bench'. Rename the collector "
            "so it does not shadow a function argument column.");
  EXPECT_EQ(validation_error({run_collector("n")}, {"n_Avg"}),
            "Info collector name 'n' collides with a parameter of 'bench' (its column 'n_Avg'). "
            "Rename the collector so it does not shadow a function argument column.");
  EXPECT_EQ(validation_error({run_collector("size")}, {"n", "dtype"}), "(no error)");
}

TEST(InfoCollectorValidationTest, NameAndCallbackRequired) {
  EXPECT_EQ(validation_error({run_collector("")}),
            "Info collector names must not be empty: the name becomes the column name.");
  EXPECT_EQ(validation_error({InfoCollector{"x", CollectionScope::kRun, {}}}),
            "Info collector 'x' has no callback.");
}

TEST(InfoCollectorValidationTest, ProfileChecksParameterNamesBeforeAnyGpuWork) {
  Options o;
  o.verbosity = Verbosity::kSilent;
  o.info_collectors = {run_collector("n")};
  try {
    (void)profile("bench", configs({1}, "n"), [](const Config&) {}, o);
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(std::string(e.what()),
              "Info collector name 'n' collides with a parameter of 'bench'. Rename the collector "
              "so it does not shadow a function argument column.");
  }
}

TEST(InfoCollectorValidationTest, OptionsValidateChecksThem) {
  Options o;
  o.info_collectors = {run_collector("Unit")};
  EXPECT_THROW(o.validate(), InvalidArgument);
}

TEST(InfoCollectorValidationTest, ScopeNames) {
  for (auto s : {CollectionScope::kOnce, CollectionScope::kConfig, CollectionScope::kRun,
                 CollectionScope::kAnnotation}) {
    EXPECT_EQ(scope_from_name(scope_name(s)), s);
  }
  EXPECT_EQ(scope_name(CollectionScope::kAnnotation), std::string("annotation"));
  EXPECT_FALSE(scope_from_name("always").has_value());
}

TEST(InfoValueTest, NumbersStringsAndNothing) {
  EXPECT_TRUE(InfoValue().empty());
  EXPECT_TRUE(InfoValue(std::nullopt).empty());
  EXPECT_TRUE(InfoValue(std::nan("")).empty());
  EXPECT_EQ(InfoValue(true).number(), 1.0);
  EXPECT_EQ(InfoValue(1024).to_string(), "1024.0");  // as pandas writes a float column
  EXPECT_EQ(InfoValue(0.5).to_string(), "0.5");
  EXPECT_EQ(InfoValue("sm_90").text(), "sm_90");
  EXPECT_TRUE(std::isnan(InfoValue("x").number()));
  EXPECT_EQ(InfoValue().to_string(), "");
}

// ---------------------------------------------------------------------------------------------
// Columns on synthetic data

const ProcessedRow& row(const testing::InfoSample& s, const std::string& annotation,
                        const std::string& metric, std::size_t config) {
  for (const auto& p : s.processed) {
    if (p.annotation == annotation && p.metric == metric && p.config == config) return p;
  }
  throw std::runtime_error("no row");
}

TEST(InfoColumnsTest, NamesAndAggregation) {
  const testing::InfoSample s = testing::info_sample(false);
  ASSERT_EQ(s.columns.size(), 5u);
  EXPECT_FALSE(s.columns[0].aggregated);  // ONCE
  EXPECT_TRUE(s.columns[1].aggregated);   // numeric CONFIG
  EXPECT_TRUE(s.columns[2].aggregated);   // numeric RUN
  EXPECT_TRUE(s.columns[3].aggregated);   // numeric ANNOTATION
  EXPECT_FALSE(s.columns[4].aggregated);  // string ANNOTATION
  EXPECT_EQ(raw_info_columns(s.columns), (std::vector<std::string>{"o", "c", "r", "a", "s"}));
  EXPECT_EQ(processed_info_columns(s.columns),
            (std::vector<std::string>{"o", "c_Avg", "c_Std", "c_Min", "c_Max", "r_Avg", "r_Std",
                                      "r_Min", "r_Max", "a_Avg", "a_Std", "a_Min", "a_Max", "s"}));
}

TEST(InfoColumnsTest, RawRowsCarryTheirRunsAndAnnotationsValues) {
  const testing::InfoSample s = testing::info_sample(false);
  ASSERT_EQ(s.raw.size(), 12u);
  const RawRow& mul_c1_r2 = s.raw[11];  // sorted by annotation: mul rows last
  EXPECT_EQ(mul_c1_r2.annotation, "mul");
  EXPECT_EQ(mul_c1_r2.info, (std::vector<InfoValue>{"v1", 2048, 20, 12, "mul_1024"}));
  EXPECT_TRUE(s.raw[4].info[2].empty());  // add, config 1, run 1: the RUN collector failed
}

TEST(InfoColumnsTest, ProcessedValues) {
  const testing::InfoSample s = testing::info_sample(false);
  // add in config 0 entered as 1st, 3rd, 5th annotation; mul as 2nd, 4th, 6th (the reference's
  // integration test: add 1/5 and 7/11, mul 2/6 and 8/12).
  const auto add0 = row(s, "add", kTimeMetric, 0);
  ASSERT_EQ(add0.info.size(), 14u);
  EXPECT_EQ(add0.info[0], InfoValue("v1"));
  EXPECT_EQ(add0.info[1], InfoValue(1024));       // c_Avg
  EXPECT_EQ(add0.info[2], InfoValue(0));          // c_Std: the same value in every run
  EXPECT_EQ(add0.info[9], InfoValue(3));          // a_Avg of 1, 3, 5
  EXPECT_EQ(add0.info[11], InfoValue(1));         // a_Min
  EXPECT_EQ(add0.info[12], InfoValue(5));         // a_Max
  EXPECT_EQ(add0.info[13], InfoValue("add_512"));
  const auto mul1 = row(s, "mul", kTimeMetric, 1);
  EXPECT_EQ(mul1.info[11], InfoValue(8));
  EXPECT_EQ(mul1.info[12], InfoValue(12));
  // RUN collector in config 1: 0 and 20 (run 1 missing): mean 10, min 0, max 20.
  EXPECT_EQ(mul1.info[5], InfoValue(10));
  EXPECT_EQ(mul1.info[6], InfoValue(std::sqrt(200.0)));
  EXPECT_EQ(mul1.info[7], InfoValue(0));
  EXPECT_EQ(mul1.info[8], InfoValue(20));
}

TEST(InfoColumnsTest, DerivedMetricRowsCarryTheColumnsToo) {
  const testing::InfoSample s = testing::info_sample(true);
  const auto derived = row(s, "add", "double", 0);
  EXPECT_EQ(derived.info[0], InfoValue("v1"));
  EXPECT_EQ(derived.info[1], InfoValue(1024));
  EXPECT_EQ(derived.info[13], InfoValue("add_512"));
  for (const auto& r : s.raw) EXPECT_EQ(r.info.size(), 5u);
}

TEST(InfoColumnsTest, StringsOrNothingKeepOneColumn) {
  const std::vector<InfoCollector> collectors = {
      {"mixed", CollectionScope::kRun, {}}, {"never", CollectionScope::kRun, {}}};
  std::vector<RunLog> runs(2);
  runs[0].run = RunId{0, 0, false};
  runs[0].info = {1.5, {}};
  runs[1].run = RunId{0, 1, false};
  runs[1].info = {"text", {}};
  std::vector<RawRow> raw(2);
  raw[0].annotation = raw[1].annotation = "k";
  raw[0].metric = raw[1].metric = kTimeMetric;
  raw[1].run = 1;
  auto processed = aggregate(raw, "");
  const auto columns = add_info_columns(collectors, runs, raw, processed);
  EXPECT_FALSE(columns[0].aggregated);
  EXPECT_FALSE(columns[1].aggregated);
  ASSERT_EQ(processed.size(), 1u);
  EXPECT_EQ(processed[0].info, (std::vector<InfoValue>{1.5, {}}));  // the first value there is
}

TEST(InfoColumnsTest, NoCollectorsNoColumns) {
  std::vector<RawRow> raw(1);
  auto processed = aggregate(raw, "");
  EXPECT_TRUE(add_info_columns({}, {}, raw, processed).empty());
  EXPECT_TRUE(raw[0].info.empty());
  EXPECT_TRUE(processed[0].info.empty());
}

}  // namespace
}  // namespace kscope
