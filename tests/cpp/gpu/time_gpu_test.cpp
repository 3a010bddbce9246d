// kscope::time on a real GPU: a kernel of known duration measured through the cupti tool, the
// three duration sources, event timing behind the cache flush, the cache flush, a callable
// without kernels, an exception, a host synchronisation inside the callable, and the cost of a
// call once CUPTI and the flush buffer are kept.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>

#include "kscope/kscope.hpp"
#include "support/error_text.hpp"
#include "test_kernels.hpp"

namespace kscope {
namespace {
using namespace kscope::testing;

TEST(TimeGpuTest, ASpinKernelsDurationIsMeasuredToTheTargetPrecision) {
  const Timing t = kscope::time([] { launch_spin(50000); });
  EXPECT_NEAR(t.statistics.avg, 50000, 5000);
  EXPECT_EQ(t.statistics.stop_reason, "target");
  EXPECT_LE(t.rel_ci(), 0.005);
  EXPECT_GE(t.statistics.num_runs, 5u);
  EXPECT_EQ(t.values.size(), t.statistics.num_runs);
  EXPECT_EQ(t.statistics.kernel, "kscope::testing::(anonymous namespace)::spin_kernel");
  EXPECT_GT(t.seconds, 0);
}

TEST(TimeGpuTest, ACallIsTheSumOfItsKernels) {
  TimeOptions o;
  o.adaptive.enabled = false;
  o.runs = 10;
  const Timing one = kscope::time([] { launch_spin(20000); }, o);
  const Timing two = kscope::time([] { launch_spin(20000); launch_spin(30000); }, o);
  EXPECT_NEAR(two.statistics.avg - one.statistics.avg, 30000, 4000);
  EXPECT_NE(two.statistics.kernel.find('|'), std::string::npos) << two.statistics.kernel;
}

TEST(TimeGpuTest, TheDurationSourcesAgreeOnALongKernelAndEventsCountTheLaunch) {
  TimeOptions o;
  o.adaptive.enabled = false;
  o.runs = 20;
  const Timing activity = kscope::time([] { launch_spin(200000); }, o);
  o.duration_source = "events";
  const Timing events = kscope::time([] { launch_spin(200000); }, o);
  o.duration_source = "profiler";
  const Timing profiler = kscope::time([] { launch_spin(200000); }, o);
  EXPECT_NEAR(events.statistics.avg / activity.statistics.avg, 1.0, 0.05);
  EXPECT_NEAR(profiler.statistics.avg / activity.statistics.avg, 1.0, 0.03);
  EXPECT_GT(events.statistics.avg, activity.statistics.avg);  // launch latency and the gaps
  EXPECT_EQ(events.statistics.kernel, "events");
  std::printf("[time] spin 200 us: activity %.0f ns, events %.0f ns, profiler %.0f ns\n",
              activity.statistics.avg, events.statistics.avg, profiler.statistics.avg);
}

// Triton's do_bench queues its events behind its cache clearing, so the host's launch runs while
// the GPU clears; kscope's events do the same: a callable that spends 10 us on the host before
// it launches reads about its kernel's time behind the flush (~51 us on an H200), and that time
// plus the 10 us without a flush (the GPU waits for the launch).
TEST(TimeGpuTest, EventsStartWhenTheFlushEndsSoTheLaunchHidesBehindIt) {
  int device = 0;
  int l2 = 0;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device), cudaSuccess);
  if (l2 < (32 << 20)) {
    GTEST_SKIP() << "the flush of a " << (l2 >> 20) << " MiB L2 may take less than the 10 us";
  }
  const auto late_launch = [] {
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(10);
    while (std::chrono::steady_clock::now() < until) {
    }
    launch_spin(20000);
  };
  TimeOptions o;
  o.adaptive.enabled = false;
  o.runs = 20;
  o.duration_source = "events";
  const Timing flushed = kscope::time(late_launch, o);
  o.cache_control = "none";
  const Timing unflushed = kscope::time(late_launch, o);
  std::printf("[time] events of a launch 10 us late: behind the flush %.0f ns, without %.0f ns\n",
              flushed.statistics.median, unflushed.statistics.median);
  EXPECT_LT(flushed.statistics.median, 20000 + 5000);
  EXPECT_GT(unflushed.statistics.median, 20000 + 9000);
}

TEST(TimeGpuTest, TheFlushMakesEveryCallReadFromDram) {
  const std::size_t n = std::size_t{1} << 22;  // 16 MiB: fits the L2
  float* x = device_floats(n);
  float* out = device_floats(1);
  launch_fill(x, 1.0f, n);
  TimeOptions o;
  o.adaptive.enabled = false;
  o.runs = 20;
  const Timing cold = kscope::time([&] { launch_read_sum(x, n, out); }, o);
  o.cache_control = "none";
  const Timing warm = kscope::time([&] { launch_read_sum(x, n, out); }, o);
  free_device(x);
  free_device(out);
  EXPECT_GT(cold.statistics.median, 1.05 * warm.statistics.median)
      << "cold " << cold.statistics.median << " warm " << warm.statistics.median;
}

TEST(TimeGpuTest, ACallableWithoutKernelsAnExceptionAndAHostSyncBehaveAsPromised) {
  const std::string text = error_text<ExtractionError>([] { (void)kscope::time([] {}); });
  EXPECT_TRUE(contains(text, "the callable launched no CUDA kernel")) << text;
  EXPECT_THROW((void)kscope::time([] {
                 launch_empty();
                 throw std::logic_error("from the callable");
               }),
               std::logic_error);
  const Timing synced = kscope::time([] {
    launch_spin(20000);
    synchronize();
  });
  EXPECT_NEAR(synced.statistics.avg, 20000, 4000);
}

TEST(TimeGpuTest, ACallOnceWarmCostsLittleMoreThanItsRuns) {
  TimeOptions o;
  o.adaptive.enabled = false;
  o.runs = 1;
  o.warmup_runs = 0;
  o.cache_control = "none";
  (void)kscope::time([] { launch_empty(); }, o);  // CUPTI set up
  constexpr int kCalls = 200;
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < kCalls; ++i) {
    launch_empty();
    synchronize();
  }
  const double bare = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < kCalls; ++i) (void)kscope::time([] { launch_empty(); }, o);
  const double timed = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  const double overhead = (timed - bare) / kCalls;
  std::printf("[time] per-call overhead once warm (1 run, cache none): %.1f us\n", overhead);
  EXPECT_LT(overhead, 2000);  // a forced CUPTI flush per call is most of it
  // Where it goes, for the record (docs/cost.md, "One measurement"): three more calls at DEBUG.
  o.verbosity = Verbosity::kDebug;
  o.log = [](std::string_view text) { std::printf("[time] %.*s", static_cast<int>(text.size()), text.data()); };
  for (int i = 0; i < 3; ++i) (void)kscope::time([] { launch_empty(); }, o);
}

// runs="auto" flushes CUPTI's records after every batch, which the stopping rule needs; ending the
// tool then finds nothing new, so a call that stops after its first batch flushes once.
TEST(TimeGpuTest, AnAutoCallFlushesCuptiOncePerBatch) {
  std::string printed;
  TimeOptions o;
  o.cache_control = "none";
  o.verbosity = Verbosity::kDebug;
  o.log = [&](std::string_view text) { printed += text; };
  const Timing t = kscope::time([] { launch_spin(100000); }, o);  // steady to 0.5 % in 5 runs
  ASSERT_EQ(t.statistics.num_runs, 5u) << printed;
  EXPECT_TRUE(contains(printed, "[cupti] the session's 1 flushes")) << printed;
  // The per-run phases of a short kernel behind the flush, for the record (docs/cost.md).
  o.cache_control = "all";
  o.log = [](std::string_view text) { std::printf("[time] %.*s", static_cast<int>(text.size()), text.data()); };
  (void)kscope::time([] { launch_spin(1500); }, o);
}

}  // namespace
}  // namespace kscope
