// Options::cuda_graph's schedule (api/region_graphs): per config, warm-up runs run the benchmark,
// the first measured run captures every region and launches it once, later runs (and passes)
// replay the captured regions in order, each inside its annotation, without the benchmark; a
// failed region or capture leaves nothing to replay. The capture itself is a recording fake.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "api/region_graphs.hpp"
#include "core/annotation_registry.hpp"
#include "kscope/annotation.hpp"
#include "kscope/errors.hpp"
#include "kscope/region_capture.hpp"

namespace kscope {
namespace {

struct FakeCapture {
  std::vector<std::string> events;
  bool fail_end = false;

  RegionCapture capture() {
    RegionCapture c;
    c.begin = [this](const std::string& name) { events.push_back("begin " + name); };
    c.end = [this](bool failed) {
      events.push_back(failed ? "end failed" : "end, launched in " +
                                                    AnnotationRegistry::instance().current_name());
      if (fail_end && !failed) throw std::runtime_error("capture invalidated");
    };
    c.replay = [this](std::size_t i) {
      events.push_back("replay " + std::to_string(i) + " in " +
                       AnnotationRegistry::instance().current_name());
    };
    c.clear = [this] { events.push_back("clear"); };
    return c;
  }
};

Config config(std::size_t index) {
  Config c;
  c.set_index(index);
  return c;
}

// Executes `fn` as run `run` of the session (the registry's run, as the Session starts it).
void execute(const Benchmark& fn, std::size_t c, std::size_t run, bool warmup = false) {
  auto& registry = AnnotationRegistry::instance();
  registry.start_run(RunId{c, run, warmup});
  try {
    fn(config(c));
  } catch (...) {
    (void)registry.finish_run();
    throw;
  }
  (void)registry.finish_run();
}

class RegionGraphsTest : public ::testing::Test {
 protected:
  FakeCapture capture;
  std::vector<std::string>& events = capture.events;
  // Two regions with host code between and after them.
  Benchmark two_regions = [this](const Config&) {
    {
      const Annotation a("a");
      events.push_back("body a");
    }
    events.push_back("between");
    {
      const Annotation b("b");
      events.push_back("body b");
    }
  };
};

TEST_F(RegionGraphsTest, WarmupRunsTheBenchmarkTheFirstRunCapturesAndLaterRunsReplayInOrder) {
  const Benchmark fn = replaying_regions(two_regions, capture.capture());
  execute(fn, 0, 0, /*warmup=*/true);
  EXPECT_EQ(events, (std::vector<std::string>{"body a", "between", "body b"}));
  events.clear();
  execute(fn, 0, 0);
  EXPECT_EQ(events, (std::vector<std::string>{"begin a", "body a", "end, launched in a", "between",
                                              "begin b", "body b", "end, launched in b"}));
  events.clear();
  execute(fn, 0, 1);
  execute(fn, 0, 2);
  EXPECT_EQ(events, (std::vector<std::string>{"replay 0 in a", "replay 1 in b", "replay 0 in a",
                                              "replay 1 in b"}));
  events.clear();
  execute(fn, 1, 0);  // the next config: its own capture, the previous graphs dropped
  EXPECT_EQ(events.front(), "clear");
  EXPECT_EQ(events.at(1), "begin a");
}

TEST_F(RegionGraphsTest, AFailedRegionLeavesNothingToReplay) {
  bool fail = true;
  const Benchmark fn = replaying_regions(
      [&](const Config&) {
        annotate("a", [&] {
          if (fail) throw std::runtime_error("boom");
        }, /*ignore_failures=*/true);
      },
      capture.capture());
  execute(fn, 0, 0);
  EXPECT_EQ(events, (std::vector<std::string>{"begin a", "end failed", "clear"}));
  events.clear();
  fail = false;
  execute(fn, 0, 1);  // captured again, this time kept
  execute(fn, 0, 2);
  EXPECT_EQ(events, (std::vector<std::string>{"begin a", "end, launched in a", "replay 0 in a"}));
}

TEST_F(RegionGraphsTest, ACaptureThatFailsFailsTheRunOnceTheBenchmarkReturns) {
  capture.fail_end = true;
  const Benchmark fn = replaying_regions(two_regions, capture.capture());
  try {
    execute(fn, 0, 0);
    FAIL() << "the capture's error was not raised";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "capture invalidated");
  }
  // The benchmark ran to its end (region b was not captured: a earlier capture had failed).
  EXPECT_EQ(events, (std::vector<std::string>{"begin a", "body a", "end, launched in a", "between",
                                              "begin b", "body b", "end failed", "clear"}));
  events.clear();
  capture.fail_end = false;
  execute(fn, 0, 1);  // nothing was kept: the next run captures
  EXPECT_EQ(events.front(), "begin a");
}

TEST_F(RegionGraphsTest, ABenchmarkThatThrowsWhileCapturingDropsTheCapture) {
  const Benchmark fn = replaying_regions(
      [&](const Config&) {
        const Annotation a("a");
        throw std::runtime_error("user error");
      },
      capture.capture());
  EXPECT_THROW(execute(fn, 0, 0), std::runtime_error);
  EXPECT_EQ(events, (std::vector<std::string>{"begin a", "end failed", "clear"}));
}

TEST_F(RegionGraphsTest, WithoutCudaGraphTheBenchmarkRunsAsItIs) {
  Options o;
  const Benchmark fn = session_benchmark(two_regions, o);
  execute(fn, 0, 0);
  execute(fn, 0, 1);
  EXPECT_EQ(events.size(), 6u);  // both runs ran the benchmark, nothing captured
}

TEST(RegionCaptureOptionsTest, CudaGraphNeedsARegionCapture) {
  Options o;
  o.cuda_graph = true;
  try {
    o.validate();
    FAIL() << "validate() accepted cuda_graph without region_capture";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("cuda_graph needs region_capture (begin, end, replay and "
                                         "clear)"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("kscope::stream_region_capture(stream)"),
              std::string::npos);
  }
  FakeCapture fake;
  o.region_capture = fake.capture();
  EXPECT_NO_THROW(o.validate());
}

TEST(RegionCaptureOptionsTest, TheLegacyDefaultStreamCannotBeCaptured) {
  try {
    (void)stream_region_capture(nullptr);
    FAIL() << "stream 0 was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("the legacy default stream (0) cannot be captured"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace kscope
