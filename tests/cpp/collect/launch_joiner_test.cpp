// The CUPTI record handling, fed with synthetic launch callbacks and kernel activity records
// through the same joiner the real callbacks use.
#include <gtest/gtest.h>

#include <thread>

#include "collect/cupti/launch_joiner.hpp"
#include "cuda/l2_flush_kernel.hpp"
#include "kscope/errors.hpp"

namespace kscope::cupti {
namespace {

LaunchInfo launch(const std::string& annotation, std::size_t config, std::size_t run, std::uint64_t seq) {
  return LaunchInfo{annotation, RunId{config, run, false}, seq};
}

KernelActivity activity(std::uint32_t corr, const std::string& name, std::uint64_t start, std::uint64_t end) {
  KernelActivity a;
  a.correlation_id = corr;
  a.name = name;
  a.start = start;
  a.end = end;
  return a;
}

TEST(LaunchJoinerTest, DecorateCompletesEachRecordFromItsActivity) {
  // The timing path's launch__ metrics: each record sees its own activity's launch.
  LaunchJoiner j;
  j.add_launch(1, launch("a", 0, 0, 1));
  j.add_launch(2, launch("b", 0, 0, 2));
  auto first = activity(1, "k1", 0, 10);
  first.launch.grid = {4, 2, 1};
  auto second = activity(2, "k2", 20, 30);
  second.launch.grid = {16, 1, 1};
  const auto out = j.join({first, second}, [](const KernelActivity& a, KernelRecord& r) {
    r.metrics.push_back({"launch__grid_size", double(a.launch.grid[0] * a.launch.grid[1]), std::nullopt});
  });
  ASSERT_EQ(out.size(), 2u);
  ASSERT_EQ(out[0].metrics.size(), 2u);
  EXPECT_DOUBLE_EQ(out[0].metrics[1].value, 8);
  EXPECT_DOUBLE_EQ(out[1].metrics[1].value, 16);
  EXPECT_EQ(out[1].annotation, "b");
}

TEST(LaunchJoinerTest, JoinsByCorrelationIdAndComputesDuration) {
  LaunchJoiner j;
  j.add_launch(7, launch("vadd", 1, 2, 10));
  const auto out = j.join({activity(7, "_Z4vaddPKfS0_Pfi", 1000, 18500)});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].annotation, "vadd");
  EXPECT_EQ(out[0].kernel, "vadd");
  EXPECT_EQ(out[0].mangled, "_Z4vaddPKfS0_Pfi");
  EXPECT_EQ(out[0].run.config, 1u);
  EXPECT_EQ(out[0].run.run, 2u);
  ASSERT_EQ(out[0].metrics.size(), 1u);
  EXPECT_EQ(out[0].metrics[0].metric, "gpu__time_duration.sum");
  EXPECT_DOUBLE_EQ(out[0].metrics[0].value, 17500);
  EXPECT_EQ(out[0].metrics[0].unit, "ns");
  EXPECT_EQ(j.pending_launches(), 0u);
}

TEST(LaunchJoinerTest, KernelsWithoutARecordedLaunchAreDropped) {
  LaunchJoiner j;
  j.add_launch(1, launch("a", 0, 0, 1));
  const auto out = j.join({activity(2, "outside", 0, 10), activity(1, "inside", 0, 10)});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].kernel, "inside");
}

TEST(LaunchJoinerTest, KscopesFlushUnderTheNextLaunchsCorrelationIdIsNoKernelOfTheRegion) {
  // A flush between two kernels of a region is launched inside the callback of the second one's
  // launch, and CUPTI gives its kernel record that launch's correlation id (H200: the "thrice"
  // region's time held two discard kernels).
  LaunchJoiner j;
  j.add_launch(3, launch("thrice", 0, 0, 1));
  const auto out = j.join({activity(3, cuda::kL2DiscardKernel, 100, 900),
                           activity(3, "_Z11read_kernelPKfm", 1000, 3000)});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].kernel, "read_kernel");
  EXPECT_DOUBLE_EQ(out[0].metrics[0].value, 2000);
  EXPECT_EQ(j.flush_kernels(), 1u);  // what the timing path's guard counts (check_flush_kernels)
  j.clear();
  EXPECT_EQ(j.flush_kernels(), 0u);
}

TEST(LaunchJoinerTest, GraphLaunchKernelsShareOneLaunchAndAreOrderedByStart) {
  LaunchJoiner j;
  j.add_launch(5, launch("graph", 0, 0, 3));
  const auto out = j.join({activity(5, "second", 200, 300), activity(5, "first", 100, 150)});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].kernel, "first");
  EXPECT_EQ(out[1].kernel, "second");
  EXPECT_LT(out[0].sequence, out[1].sequence);
}

TEST(LaunchJoinerTest, RecordsComeOutInLaunchOrder) {
  LaunchJoiner j;
  j.add_launch(1, launch("a", 0, 0, 2));
  j.add_launch(2, launch("b", 0, 0, 1));
  const auto out = j.join({activity(1, "ka", 0, 1), activity(2, "kb", 5, 6)});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].annotation, "b");
}

TEST(LaunchJoinerTest, NegativeDurationIsAnError) {
  LaunchJoiner j;
  j.add_launch(1, launch("a", 0, 0, 1));
  EXPECT_THROW((void)j.join({activity(1, "k", 10, 5)}), ToolError);
}

TEST(LaunchJoinerTest, LaunchesFromManyThreads) {
  LaunchJoiner j;
  std::vector<std::thread> threads;
  for (std::uint32_t t = 0; t < 4; ++t) {
    threads.emplace_back([&j, t] {
      for (std::uint32_t i = 0; i < 100; ++i) j.add_launch(t * 1000 + i, launch("a", 0, 0, i));
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(j.pending_launches(), 400u);
  j.clear();
  EXPECT_EQ(j.pending_launches(), 0u);
}

}  // namespace
}  // namespace kscope::cupti
