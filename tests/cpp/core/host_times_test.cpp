// HostTimes: the phases' spans (every lap and nested span is kept with the run it belongs to,
// for the timeline: Results::timeline, the trace format), the per-run line and the fixed steps,
// all taken from one mark.
#include <gtest/gtest.h>

#include <thread>

#include "core/host_times.hpp"

namespace kscope {
namespace {

TEST(HostTimesSpansTest, LapsAreSpansOfTheCurrentRunInOrder) {
  HostTimes p;
  p.set_run(RunId{2, 1, false}, 1);
  p.start();
  p.lap(HostTimes::kEnvironmentBefore);
  const auto t0 = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
  p.add(HostTimes::kRegionEntry, t0, std::chrono::steady_clock::now(), "vadd");
  p.lap(HostTimes::kBenchmark);
  p.set_run(std::nullopt, 0);
  p.start();
  p.lap(HostTimes::kJournal);
  const auto spans = p.take_spans();
  ASSERT_EQ(spans.size(), 4u);
  EXPECT_EQ(spans[0].phase, "environment before");
  EXPECT_EQ(spans[0].config, std::optional<std::size_t>(2));
  EXPECT_EQ(spans[0].run, std::optional<std::size_t>(1));
  EXPECT_EQ(spans[0].pass, 1);
  EXPECT_EQ(spans[1].phase, "region entry");
  EXPECT_EQ(spans[1].annotation, "vadd");
  EXPECT_GE(spans[1].end_ns - spans[1].start_ns, 1000000);
  EXPECT_EQ(spans[2].phase, "benchmark");
  EXPECT_EQ(spans[2].start_ns, spans[0].end_ns);  // laps are back to back
  EXPECT_LE(spans[2].start_ns, spans[1].start_ns);  // the region entry lies inside the benchmark
  EXPECT_GE(spans[2].end_ns, spans[1].end_ns);
  EXPECT_EQ(spans[3].phase, "journal");
  EXPECT_FALSE(spans[3].config.has_value());
  EXPECT_FALSE(spans[3].run.has_value());
  EXPECT_TRUE(p.take_spans().empty());  // handed over once
  p.count_run();
  EXPECT_NE(p.per_run_summary().find("region entry (in benchmark)"), std::string::npos);
}

// With the loop's wall time, the summary names what no phase covered, per run.
TEST(HostTimesSpansTest, SummaryNamesTheTimeOutsideThePhases) {
  HostTimes p;
  p.set_run(RunId{0, 0, false}, 0);
  p.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  p.lap(HostTimes::kBenchmark);
  p.count_run();
  EXPECT_EQ(p.per_run_summary().find("outside the phases"), std::string::npos);
  const std::string s = p.per_run_summary(std::chrono::milliseconds(100));
  auto value = [&s](const std::string& name) {
    const auto at = s.find(", " + name + " ");
    return at == std::string::npos ? -1.0 : std::stod(s.substr(at + name.size() + 3));
  };
  const double benchmark = value("benchmark"), outside = value("outside the phases");
  ASSERT_GE(outside, 0) << s;
  EXPECT_GE(benchmark, 2000) << s;  // the sleep, however long the machine made it
  // The loop's 100 ms less what the phases covered (the benchmark alone), to the printed 0.1 us.
  EXPECT_NEAR(outside, 100000 - benchmark, 0.2) << s;
}

TEST(HostTimesSpansTest, WarmupRunsAreMarked) {
  HostTimes p;
  p.set_run(RunId{0, 0, true}, 0);
  p.start();
  p.lap(HostTimes::kBenchmark);
  const auto spans = p.take_spans();
  ASSERT_EQ(spans.size(), 1u);
  EXPECT_TRUE(spans[0].warmup);
  EXPECT_EQ(spans[0].pass, 0);
}

// The fixed steps in the order taken, each from the end of the previous interval, a phase's
// included: one mark, so that nothing is counted twice or lost between the two.
TEST(HostTimesStepsTest, StepsAndPhasesShareOneMark) {
  HostTimes t;
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  t.step("set-up");
  const auto after_setup = t.mark();
  t.lap(HostTimes::kBenchmark);
  EXPECT_GE(t.mark(), after_setup);
  const auto before_end = t.mark();
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  t.step("tool end");
  EXPECT_GE(t.mark() - before_end, std::chrono::milliseconds(2));
  const std::string s = t.fixed_cost_summary();
  ASSERT_EQ(s.rfind("fixed cost (ms): set-up ", 0), 0u) << s;
  const auto at = [&s](const std::string& name) {
    return std::stod(s.substr(s.find(name) + name.size() + 1));
  };
  EXPECT_GE(at("set-up"), 2.0) << s;
  EXPECT_GE(at("tool end"), 2.0) << s;
  EXPECT_LT(at("tool end"), at("total")) << s;
  EXPECT_EQ(s.find("page faults"), std::string::npos) << s;  // not counted by default
}

TEST(HostTimesStepsTest, SkipLeavesTheTimeSinceTheLastStepOut) {
  HostTimes t;
  t.step("a");
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  t.skip();  // the runs: no fixed cost
  t.step("b");
  const std::string s = t.fixed_cost_summary();
  EXPECT_LT(std::stod(s.substr(s.find(" total ") + 7)), 20.0) << s;
}

TEST(HostTimesStepsTest, ResetPhasesKeepsTheSteps) {
  HostTimes t;
  t.step("a");
  t.set_run(RunId{0, 0, false}, 0);
  t.lap(HostTimes::kBenchmark);
  t.count_run();
  t.reset_phases();
  EXPECT_EQ(t.per_run_summary(), "no runs");
  EXPECT_TRUE(t.take_spans().empty());
  EXPECT_EQ(t.fixed_cost_summary().rfind("fixed cost (ms): a ", 0), 0u);
}

}  // namespace
}  // namespace kscope
