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
  const std::string s = p.summary(std::chrono::milliseconds(100));
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
