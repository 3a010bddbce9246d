// cache_control "all" between the kernels of a region: which launches the gate flushes before,
// on which stream, and what it leaves alone (kscope's own flush launches, launches outside
// regions and runs), with a fake flush and the real annotation registry; and the launch
// observers' treatment of kscope's own (internal) launches.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "collect/cupti/kernel_flush_gate.hpp"
#include "collect/cupti/launch_joiner.hpp"
#include "collect/cupti/timing_observer.hpp"
#include "core/annotation_registry.hpp"
#include "kscope/errors.hpp"

namespace kscope::cupti {
namespace {

void* stream(std::uintptr_t n) { return reinterpret_cast<void*>(n); }

LaunchEvent entry(void* on, bool internal = false) {
  LaunchEvent e;
  e.stream = on;
  e.internal = internal;
  return e;
}

struct GateTest : ::testing::Test {
  void TearDown() override {
    auto& registry = AnnotationRegistry::instance();
    registry.end(false);
    if (registry.current_run()) (void)registry.finish_run();
  }
  std::vector<void*> flushed;
  KernelFlushGate gate{[this](void* s) { flushed.push_back(s); }};
};

TEST_F(GateTest, FlushesBeforeEveryLaunchOfARegionButItsFirstOnTheLaunchStream) {
  auto& registry = AnnotationRegistry::instance();
  registry.start_run(RunId{0, 0, false});
  (void)registry.begin("two_sums");
  gate.before_launch(entry(stream(7)));  // after the region's entry flush: none here
  EXPECT_TRUE(flushed.empty());
  gate.before_launch(entry(stream(7)));
  gate.before_launch(entry(stream(9)));  // another stream: flushed on it
  EXPECT_EQ(flushed, (std::vector<void*>{stream(7), stream(9)}));
  registry.end(false);
  (void)registry.begin("next");  // a new region: its first kernel follows its own entry flush
  gate.before_launch(entry(stream(7)));
  EXPECT_EQ(flushed.size(), 2u);
  gate.before_launch(entry(stream(7)));
  EXPECT_EQ(flushed.size(), 3u);
  EXPECT_EQ(gate.flushes(), 3u);
}

TEST_F(GateTest, WarmupRunsAreFlushedAsMeasuredOnes) {
  auto& registry = AnnotationRegistry::instance();
  registry.start_run(RunId{0, 0, true});
  (void)registry.begin("k");
  gate.before_launch(entry(nullptr));
  gate.before_launch(entry(nullptr));
  EXPECT_EQ(flushed, (std::vector<void*>{nullptr}));
}

TEST_F(GateTest, LeavesLaunchesOutsideRegionsAndRunsAndItsOwnLaunchesAlone) {
  auto& registry = AnnotationRegistry::instance();
  gate.before_launch(entry(stream(1)));  // no run
  gate.before_launch(entry(stream(1)));
  registry.start_run(RunId{0, 0, false});
  gate.before_launch(entry(stream(1)));  // in the run, outside every region (its inputs)
  gate.before_launch(entry(stream(1)));
  EXPECT_TRUE(flushed.empty());
  (void)registry.begin("k");
  gate.before_launch(entry(stream(1)));
  gate.before_launch(entry(stream(1), /*internal=*/true));  // the flush's own kernel
  LaunchEvent exit = entry(stream(1));
  exit.entering = false;
  gate.before_launch(exit);  // exits are not launches
  EXPECT_TRUE(flushed.empty());
  gate.before_launch(entry(stream(1)));  // the region's second kernel
  EXPECT_EQ(flushed.size(), 1u);
}

TEST_F(GateTest, AFailedFlushIsRethrownOnceAndLaterLaunchesAreStillFlushed) {
  auto& registry = AnnotationRegistry::instance();
  int calls = 0;
  KernelFlushGate failing([&](void*) {
    if (++calls == 1) throw std::runtime_error("cudaMemsetAsync: out of memory");
  });
  registry.start_run(RunId{0, 0, false});
  (void)registry.begin("k");
  failing.before_launch(entry(nullptr));
  EXPECT_NO_THROW(failing.before_launch(entry(nullptr)));  // never throws through CUPTI
  failing.before_launch(entry(nullptr));
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(failing.flushes(), 1u);
  try {
    failing.rethrow();
    FAIL() << "the flush's error was not rethrown";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "cudaMemsetAsync: out of memory");
  }
  EXPECT_NO_THROW(failing.rethrow());
}

TEST(KernelFlushGateTest, AppliesToCacheControlAllWhereKernelsAreMeasuredOneByOne) {
  Options o;
  EXPECT_TRUE(KernelFlushGate::applies(o));  // the default: "all", activity durations
  o.duration_source = "profiler";
  EXPECT_TRUE(KernelFlushGate::applies(o));
  o.cache_control = "region";
  EXPECT_FALSE(KernelFlushGate::applies(o));
  o.cache_control = "none";
  EXPECT_FALSE(KernelFlushGate::applies(o));
  o.cache_control = "all";
  o.replay_mode = "range";  // one range per region: a flush inside would be measured
  EXPECT_FALSE(KernelFlushGate::applies(o));
  o.replay_mode = "kernel";
  o.duration_source = "events";  // one event pair per region: likewise
  EXPECT_FALSE(KernelFlushGate::applies(o));
}

TEST(KernelFlushGateTest, ATimingSessionThatRecognisedNoneOfItsFlushKernelsFails) {
  EXPECT_NO_THROW(check_flush_kernels(0, 0));             // nothing flushed between kernels
  EXPECT_NO_THROW(check_flush_kernels(4, 6));             // the entry flushes' kernels too
  EXPECT_NO_THROW(check_flush_kernels(4, 3));             // the last ones may come later
  EXPECT_NO_THROW(check_flush_kernels(4, std::nullopt));  // a counter path: no kernel records
  try {
    check_flush_kernels(4, 0);
    FAIL() << "expected a ToolError";
  } catch (const ToolError& e) {
    EXPECT_STREQ(e.what(),
                 "the cupti tool flushed the L2 4 times between kernels of a region (cache_control "
                 "'all') but found none of its flush kernels ('kscope_l2_discard_lines') among "
                 "CUPTI's kernel records, so the regions' durations could hold them. This is a bug "
                 "of kscope: measure with cache_control='region' and report it.");
  }
}

TEST(TimingObserverTest, KscopesOwnLaunchesAreNotAttributedToTheRegion) {
  auto& registry = AnnotationRegistry::instance();
  LaunchJoiner joiner;
  TimingObserver observer(&joiner);
  registry.start_run(RunId{0, 0, false});
  (void)registry.begin("k");
  LaunchEvent flush = entry(nullptr, /*internal=*/true);
  flush.correlation_id = 1;
  observer.on_launch(flush);
  EXPECT_EQ(joiner.pending_launches(), 0u);
  LaunchEvent kernel = entry(nullptr);
  kernel.correlation_id = 2;
  observer.on_launch(kernel);
  EXPECT_EQ(joiner.pending_launches(), 1u);
  registry.end(false);
  (void)registry.finish_run();
}

}  // namespace
}  // namespace kscope::cupti
