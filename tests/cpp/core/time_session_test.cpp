// kscope::time's session without a device (api/time_session.hpp) on the fake collector: what a
// call measures, when it stops, the warm-up and setup calls, and every error it promises.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "api/time_session.hpp"
#include "core/annotation_registry.hpp"
#include "fakes.hpp"
#include "support/error_text.hpp"

namespace kscope {
namespace {
using testing::contains;
using testing::error_text;

struct Harness {
  testing::FakeCollector collector;
  testing::FakeEnvironment env;
  Timing time(const std::function<void()>& fn, const TimeOptions& o) {
    HostTimes times;
    return time_session(fn, o, session_options(o), collector, env, 0, times);
  }
};

TimeOptions fixed(int runs) {
  TimeOptions o;
  o.adaptive.enabled = false;
  o.runs = runs;
  return o;
}

TEST(TimeSessionTest, ACallIsWorthTheSumOfItsKernelsAndTheWarmUpCallIsNotMeasured) {
  Harness h;
  int calls = 0;
  const Timing t = h.time([&] {
    ++calls;
    h.collector.launch("gemm", 100.0 * calls);
    h.collector.launch("bias", 1.0);
  }, fixed(4));
  EXPECT_EQ(calls, 5);  // one warm-up call, then 4 measured ones
  EXPECT_EQ(t.values, (std::vector<double>{201, 301, 401, 501}));
  EXPECT_EQ(t.statistics.num_runs, 4u);
  EXPECT_DOUBLE_EQ(t.statistics.avg, 351);
  EXPECT_DOUBLE_EQ(t.statistics.min, 201);
  EXPECT_DOUBLE_EQ(t.statistics.max, 501);
  EXPECT_DOUBLE_EQ(t.statistics.median, 351);
  EXPECT_EQ(t.statistics.kernel, "gemm|bias");
  EXPECT_EQ(t.statistics.unit, std::optional<std::string>("ns"));
  EXPECT_EQ(t.statistics.metric, kTimeMetric);
  EXPECT_EQ(t.statistics.annotation, "kscope::time()");
  EXPECT_EQ(t.statistics.stop_reason, "");  // a fixed run count has no stop
  EXPECT_GT(t.seconds, 0);
  EXPECT_EQ(h.env.regions.size(), 5u);  // every call is a region: its cache flush comes first
}

TEST(TimeSessionTest, ByDefaultItStopsAtTheTargetPrecision) {
  Harness h;
  int calls = 0;
  const Timing steady = h.time([&] { h.collector.launch("k", 1000.0 + (++calls % 2)); }, {});
  EXPECT_EQ(steady.statistics.stop_reason, "target");
  EXPECT_EQ(steady.statistics.num_runs, 5u);  // min_runs
  EXPECT_LE(steady.rel_ci(), 0.005);

  calls = 0;
  const Timing noisy = h.time([&] { h.collector.launch("k", ++calls % 2 ? 1000.0 : 1030.0); }, {});
  EXPECT_EQ(noisy.statistics.stop_reason, "target");
  EXPECT_GT(noisy.statistics.num_runs, 5u);  // more batches until the interval is narrow enough
  EXPECT_LE(noisy.rel_ci(), 0.005);
  EXPECT_EQ(noisy.values.size(), noisy.statistics.num_runs);
}

TEST(TimeSessionTest, MaxRunsBoundsTheCalls) {
  Harness h;
  int calls = 0;
  TimeOptions o;
  o.adaptive.max_runs = 12;
  const Timing t = h.time([&] { h.collector.launch("k", ++calls % 2 ? 500.0 : 1500.0); }, o);
  EXPECT_EQ(t.statistics.stop_reason, "max_runs");
  EXPECT_EQ(t.statistics.num_runs, 12u);
}

TEST(TimeSessionTest, SetupRunsBeforeEveryCallOutsideTheRegionAndBeforeItsCacheFlush) {
  Harness h;
  std::vector<std::string> events;
  h.env.events = &events;
  TimeOptions o = fixed(2);
  o.setup = [&] {
    events.push_back("setup, open: " + AnnotationRegistry::instance().current_name());
  };
  (void)h.time([&] {
    events.push_back("call in " + AnnotationRegistry::instance().current_name());
    h.collector.launch("k", 1);
  }, o);
  const std::vector<std::string> call{"env before", "setup, open: ", "env region kscope::time()",
                                      "call in kscope::time()"};
  std::vector<std::string> expected;
  for (int i = 0; i < 3; ++i) expected.insert(expected.end(), call.begin(), call.end());
  EXPECT_EQ(events, expected);
}

TEST(TimeSessionTest, IgnoredKernelsAreNotCounted) {
  Harness h;
  TimeOptions o = fixed(3);
  o.ignore_kernel_list = {"fill"};
  const Timing t = h.time([&] {
    h.collector.launch("fill", 50);
    h.collector.launch("k", 10);
  }, o);
  EXPECT_EQ(t.values, (std::vector<double>{10, 10, 10}));
  EXPECT_EQ(t.statistics.kernel, "k");
}

TEST(TimeSessionTest, ACallableThatLaunchesNoKernelIsAnExtractionError) {
  Harness h;
  TimeOptions o;
  o.call_name = "kscope.testing.do_bench()";
  const std::string text = error_text<ExtractionError>([&] { (void)h.time([] {}, o); });
  EXPECT_TRUE(contains(text, "kscope.testing.do_bench(): the callable launched no CUDA kernel in "
                             "its 5 measured calls, so there is nothing to time."))
      << text;
  EXPECT_TRUE(contains(text, "memory copies, memsets and host work are not kernels")) << text;
  // Only the first batch was made: a callable without kernels fails fast.
  EXPECT_EQ(h.env.regions.size(), 6u);
}

TEST(TimeSessionTest, KernelsOfTheWarmUpCallAloneAreNoMeasurement) {
  Harness h;
  bool first = true;
  const std::string text = error_text<ExtractionError>([&] {
    (void)h.time([&] {
      if (first) h.collector.launch("compile", 1);
      first = false;
    }, fixed(2));
  });
  EXPECT_TRUE(contains(text, "in its 2 measured calls")) << text;
  EXPECT_TRUE(contains(text, "kernels launched only by the unmeasured first call are not "
                             "measured")) << text;
}

struct CallFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

TEST(TimeSessionTest, AnExceptionOfTheCallablePropagatesUnchanged) {
  Harness h;
  int calls = 0;
  try {
    (void)h.time([&] {
      if (++calls == 3) throw CallFailed("out of resources");
      h.collector.launch("k", 1);
    }, {});
    FAIL() << "the exception was swallowed";
  } catch (const CallFailed& e) {
    EXPECT_STREQ(e.what(), "out of resources");
  }
  EXPECT_EQ(AnnotationRegistry::instance().current_name(), "");  // the region was closed
  EXPECT_FALSE(AnnotationRegistry::instance().current_run());
  // A later measurement works.
  const Timing t = h.time([&] { h.collector.launch("k", 7); }, fixed(2));
  EXPECT_EQ(t.values, (std::vector<double>{7, 7}));
}

TEST(TimeSessionTest, CallsThatLaunchDifferentNumbersOfKernelsAreAnExtractionError) {
  Harness h;
  int calls = 0;
  const std::string text = error_text<ExtractionError>([&] {
    (void)h.time([&] {
      const int kernels = 1 + ++calls % 2;
      for (int k = 0; k < kernels; ++k) h.collector.launch("k", 1);
    }, fixed(4));
  });
  EXPECT_TRUE(contains(text, "Expect same number of kernels per run")) << text;
}

TEST(TimeSessionTest, BadOptionsFailWithProfilesTextsBeforeAnyCall) {
  Harness h;
  int calls = 0;
  const auto call = [&] { ++calls; };
  TimeOptions o = fixed(0);
  EXPECT_TRUE(contains(error_text<InvalidArgument>([&] { (void)h.time(call, o); }),
                       "Invalid runs 0. Expected an integer >= 1"));
  o = {};
  o.cache_control = "warm";
  EXPECT_EQ(error_text<InvalidArgument>([&] { (void)h.time(call, o); }),
            "Invalid cache_control 'warm'. Expected 'all', 'region' or 'none'.");
  o = {};
  o.adaptive.target_rel_ci = 2;
  EXPECT_TRUE(contains(error_text<InvalidArgument>([&] { (void)h.time(call, o); }),
                       "Invalid target_rel_ci 2."));
  o = {};
  o.call_name = "";
  EXPECT_TRUE(contains(error_text<InvalidArgument>([&] { (void)h.time(call, o); }),
                       "Invalid call_name ''"));
  EXPECT_EQ(error_text<InvalidArgument>([&] { (void)h.time({}, TimeOptions{}); }),
            "kscope::time(): the callable is empty.");
  EXPECT_EQ(calls, 0);
  EXPECT_TRUE(h.collector.events.empty());  // the tool was not begun
}

TEST(TimeSessionTest, AtDebugItSaysWhatTheCallCostAndSilentItSaysNothing) {
  Harness h;
  std::string printed;
  TimeOptions o = fixed(3);
  o.log = [&](std::string_view text) { printed += text; };
  (void)h.time([&] { h.collector.launch("k", 1); }, o);
  EXPECT_EQ(printed, "");  // kSilent by default

  o.verbosity = Verbosity::kDebug;
  (void)h.time([&] { h.collector.launch("k", 1); }, o);
  // The fixed steps (the tool's begin and end: CUPTI's attach and last flush on a GPU), then the
  // host time per call of the callable, from the session's phases.
  for (const char* step : {"[kscope] fixed cost (ms): session set-up ", ", tool begin ",
                           ", tool end ", ", statistics ", ", total "}) {
    EXPECT_TRUE(contains(printed, step)) << step << " not in\n" << printed;
  }
  EXPECT_TRUE(contains(printed, "[kscope] host time per run (us, mean over 4 executions): "))
      << printed;
}

TEST(TimeSessionTest, ItIsRefusedInsideAProfileRun) {
  Harness h;
  auto& registry = AnnotationRegistry::instance();
  registry.start_run(RunId{0, 0, false});
  const std::string text =
      error_text<NotSupportedError>([&] { (void)h.time([&] { h.collector.launch("k", 1); }, {}); });
  (void)registry.finish_run();
  EXPECT_TRUE(contains(text, "kscope::time() was called inside a run of a profile() sweep"))
      << text;
}

TEST(TimingTest, QuantilesInterpolateLinearlyBetweenTheCalls) {
  Timing t;
  t.values = {4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(t.quantile(0), 1);
  EXPECT_DOUBLE_EQ(t.quantile(0.5), 2.5);
  EXPECT_DOUBLE_EQ(t.quantile(0.2), 1.6);
  EXPECT_DOUBLE_EQ(t.quantile(1), 4);
  EXPECT_EQ(error_text<InvalidArgument>([&] { (void)t.quantile(1.5); }),
            "Invalid quantile 1.5. Expected a fraction between 0 and 1, e.g. 0.5 for the median.");
}

TEST(TimingTest, RelCiIsTheHalfWidthOverTheMean) {
  Timing t;
  t.statistics.num_runs = 10;
  t.statistics.avg = 200;
  t.statistics.ci95_upper = 201;
  EXPECT_DOUBLE_EQ(t.rel_ci(), 0.005);
  t.statistics.num_runs = 1;
  EXPECT_TRUE(std::isnan(t.rel_ci()));
}

}  // namespace
}  // namespace kscope
