// The Session under Options::adaptive (runs="auto") with the fake collector: batches until the
// stopping rule stops, per-config stop reasons, the sink's "stop" calls.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/session.hpp"
#include "fakes.hpp"
#include "kscope/annotation.hpp"

namespace kscope {
namespace {
using testing::RecordingSink;

class StopSink : public RecordingSink {
 public:
  void config_stopped(const ConfigStop& s) override {
    stops.push_back(s);
    runs_when_stopped.push_back(runs.size());
    records_when_stopped.push_back(records.size());
  }
  std::vector<ConfigStop> stops;
  std::vector<std::size_t> runs_when_stopped;
  std::vector<std::size_t> records_when_stopped;
};

using Harness = testing::SessionHarness<StopSink>;

Options automatic() {
  Options o;
  o.adaptive.enabled = true;
  o.runs = 3;  // ignored
  o.adaptive.max_runs = 64;
  o.adaptive.time_budget = 1e6;
  o.verbosity = Verbosity::kSilent;
  return o;
}

TEST(SessionAdaptiveTest, WithRecordsDecodedLaterAStopWaitsForItsRunsAndTheirRecords) {
  // A collector decoding in batches: a config's runs reach the sink at the next write, with
  // their records, and its stop after them.
  Harness h;
  h.collector.complete_flushes = false;
  h.collector.one_flush_late = true;
  const auto out = h.run(automatic(), configs({1, 2}), [&](const Config&) {
    Annotation a("k");
    h.collector.launch("kern", 1000.0);
  });
  ASSERT_EQ(out.stops.size(), 2u);
  const std::size_t first = out.stops[0].runs;
  const std::size_t both = first + out.stops[1].runs;
  ASSERT_EQ(h.sink.stops.size(), 2u);
  EXPECT_EQ(h.sink.stops[0].config, 0u);
  EXPECT_EQ(h.sink.stops[1].config, 1u);
  EXPECT_EQ(h.sink.runs_when_stopped, (std::vector<std::size_t>{first, both}));
  EXPECT_EQ(h.sink.records_when_stopped, (std::vector<std::size_t>{first, both}));
}

TEST(SessionAdaptiveTest, AStableConfigStopsAtTheTargetANoisyOneAtMaxRuns) {
  Harness h;
  int run = 0;
  const auto out = h.run(automatic(), configs({1, 2}), [&](const Config& c) {
    Annotation a("k");
    ++run;
    // config 0: 1000 ns +- 0.01 %; config 1: 500 or 1500 ns
    const double ns = c.index() == 0 ? 1000.0 + (run % 2 ? 0.1 : -0.1) : (run % 2 ? 500.0 : 1500.0);
    h.collector.launch("kern", ns);
  });
  ASSERT_EQ(out.stops.size(), 2u);
  EXPECT_EQ(out.stops[0].config, 0u);
  EXPECT_EQ(out.stops[0].reason, "target");
  EXPECT_EQ(out.stops[0].runs, 5u);  // min_runs
  EXPECT_LT(out.stops[0].rel_ci, 0.005);
  EXPECT_EQ(out.stops[1].reason, "max_runs");
  EXPECT_EQ(out.stops[1].runs, 64u);
  EXPECT_EQ(out.runs.size(), 69u);
  EXPECT_EQ(out.records.size(), 69u);
  // The sink hears of each stop after the config's runs reached it.
  ASSERT_EQ(h.sink.stops.size(), 2u);
  EXPECT_EQ(h.sink.runs_when_stopped, (std::vector<std::size_t>{5, 69}));
}

TEST(SessionAdaptiveTest, WarmupRunsComeFirstAndAreNotCounted) {
  Harness h;
  Options o = automatic();
  o.warmup_runs = 2;
  int calls = 0;
  const auto out = h.run(o, configs({1}), [&](const Config&) {
    ++calls;
    Annotation a("k");
    h.collector.launch("kern", 1000.0);
  });
  EXPECT_EQ(calls, 7);  // 2 warm-up + min_runs 5
  ASSERT_EQ(out.stops.size(), 1u);
  EXPECT_EQ(out.stops[0].runs, 5u);
}

TEST(SessionAdaptiveTest, AConfigWithoutKernelsStopsAtMinRuns) {
  Harness h;
  const auto out = h.run(automatic(), configs({1}), [&](const Config&) { Annotation a("k"); });
  ASSERT_EQ(out.stops.size(), 1u);
  EXPECT_EQ(out.stops[0].reason, "no_values");
  EXPECT_EQ(out.stops[0].runs, 5u);
}

TEST(SessionAdaptiveTest, FixedRunsRecordNoStops) {
  Harness h;
  Options o = automatic();
  o.adaptive.enabled = false;
  const auto out = h.run(o, configs({1}), [&](const Config&) {
    Annotation a("k");
    h.collector.launch("kern", 1000.0);
  });
  EXPECT_TRUE(out.stops.empty());
  EXPECT_EQ(out.runs.size(), 3u);
}

}  // namespace
}  // namespace kscope
