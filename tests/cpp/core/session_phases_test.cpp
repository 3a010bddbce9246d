// SessionPhases' spans: every lap and nested span is kept with the run it belongs to, for the
// timeline (Results::timeline, the trace format).
#include <gtest/gtest.h>

#include <thread>

#include "core/session_phases.hpp"

namespace kscope {
namespace {

TEST(SessionPhasesSpansTest, LapsAreSpansOfTheCurrentRunInOrder) {
  SessionPhases p;
  p.set_run(RunId{2, 1, false}, 1);
  p.start();
  p.lap(SessionPhases::kEnvironmentBefore);
  const auto t0 = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
  p.add(SessionPhases::kRegionEntry, t0, std::chrono::steady_clock::now(), "vadd");
  p.lap(SessionPhases::kBenchmark);
  p.set_run(std::nullopt, 0);
  p.start();
  p.lap(SessionPhases::kJournal);
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
  EXPECT_NE(p.summary().find("region entry (in benchmark)"), std::string::npos);
}

// With the loop's wall time, the summary names what no phase covered, per run.
TEST(SessionPhasesSpansTest, SummaryNamesTheTimeOutsideThePhases) {
  SessionPhases p;
  p.set_run(RunId{0, 0, false}, 0);
  p.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  p.lap(SessionPhases::kBenchmark);
  p.count_run();
  EXPECT_EQ(p.summary().find("outside the phases"), std::string::npos);
  const std::string s = p.summary(std::chrono::milliseconds(10));
  const auto at = s.find("outside the phases ");
  ASSERT_NE(at, std::string::npos) << s;
  const double us = std::stod(s.substr(at + 19));
  EXPECT_GT(us, 5000) << s;  // 10 ms of loop, ~2 ms of it in the benchmark
  EXPECT_LT(us, 8001) << s;
}

TEST(SessionPhasesSpansTest, WarmupRunsAreMarked) {
  SessionPhases p;
  p.set_run(RunId{0, 0, true}, 0);
  p.start();
  p.lap(SessionPhases::kBenchmark);
  const auto spans = p.take_spans();
  ASSERT_EQ(spans.size(), 1u);
  EXPECT_TRUE(spans[0].warmup);
  EXPECT_EQ(spans[0].pass, 0);
}

}  // namespace
}  // namespace kscope
