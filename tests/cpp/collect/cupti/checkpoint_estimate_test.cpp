// metric_replay "checkpoint" with a large footprint: the estimate of one save from the device's
// memory, and the warning before the first pass (issue 35: 110 GB held on an H200 took 181.9 s
// for 3 runs, with no word to the user).
#include <gtest/gtest.h>

#include <string>

#include "collect/cupti/checkpoint_estimate.hpp"

namespace kscope::cupti {
namespace {

constexpr std::size_t kGB = 1'000'000'000;

TEST(CheckpointEstimateTest, ASaveThatFitsOnTheDeviceIsFast) {
  const auto e = estimate_checkpoint({60 * kGB, 80 * kGB});  // 60 GB held on a 141 GB H200
  EXPECT_FALSE(e.on_host);
  EXPECT_NEAR(e.save_seconds, 60e9 / kDeviceSaveBytesPerSecond, 1e-12);
  EXPECT_LT(e.save_seconds, 0.1);
  EXPECT_EQ(checkpoint_warning({60 * kGB, 80 * kGB}, 100), "");
}

TEST(CheckpointEstimateTest, ASaveThatCannotFitOnTheDeviceGoesToHostMemory) {
  const auto e = estimate_checkpoint({110 * kGB, 30 * kGB});
  EXPECT_TRUE(e.on_host);
  EXPECT_NEAR(e.save_seconds, 60.6, 0.01);  // the H200's measured run
}

TEST(CheckpointEstimateTest, TheWarningGivesTheEstimateAndTheAlternatives) {
  EXPECT_EQ(checkpoint_warning({110 * kGB, 30 * kGB}, 3),
            "metric_replay 'checkpoint' saves the device's memory before every measured run: with "
            "110 GB in use and 30.0 GB free, the copy does not fit on the device and goes to host "
            "memory, one save is estimated at ~61 s, ~182 s for the sweep's 3 measured run(s), "
            "restores not counted. Use metric_replay 'application' (no save; the benchmark must "
            "not depend on what earlier executions left in memory), or hold less device memory "
            "during the sweep (free caches, e.g. torch.cuda.empty_cache(), or a smaller "
            "footprint).");
}

TEST(CheckpointEstimateTest, OnlyEstimatesAboveAFewSecondsAreWarnedAbout) {
  // At the host rate, 3 s is ~5.5 GB: just under and just over it, on the host side.
  const auto bytes_at = [](double seconds) { return static_cast<std::size_t>(seconds * kHostSaveBytesPerSecond); };
  const std::size_t under = bytes_at(kWarnSaveSeconds * 0.99), over = bytes_at(kWarnSaveSeconds * 1.01);
  EXPECT_EQ(checkpoint_warning({under, under / 2}, 1), "");
  EXPECT_NE(checkpoint_warning({over, over / 2}, 1), "");
  EXPECT_EQ(checkpoint_warning({over, over}, 1), "");  // the same on the device: 2 ms
}

TEST(CheckpointEstimateTest, ACopyLargerThanTheHostsAvailableMemoryIsSaidToRiskFailing) {
  // 130 GB held on a 141 GB H200 whose host has 120 GB available.
  const std::string w = checkpoint_warning({130 * kGB, 11 * kGB, 120 * kGB}, 2);
  EXPECT_NE(w.find("restores not counted; the host has 120 GB of memory available for it, so the "
                   "save may fail. Use metric_replay 'application'"),
            std::string::npos) << w;
  // Room on the host, on the device, or the host's memory unknown: no such clause.
  for (const DeviceMemory m : {DeviceMemory{110 * kGB, 30 * kGB, 120 * kGB}, DeviceMemory{130 * kGB, 11 * kGB, 0}}) {
    EXPECT_EQ(checkpoint_warning(m, 2).find("may fail"), std::string::npos);
  }
}

TEST(CheckpointEstimateTest, ASaveCuptiRefusesForMemoryNamesTheFootprint) {
  EXPECT_EQ(checkpoint_out_of_memory({130 * kGB, 11 * kGB, 2 * kGB}),
            "metric_replay 'checkpoint' could not save the device's memory: CUPTI found no room "
            "for the copy (CUPTI_ERROR_OUT_OF_MEMORY) with 130 GB in use and 11.0 GB free on the "
            "device and 2.00 GB of host memory available. Use metric_replay 'application' (no "
            "save; the benchmark must not depend on what earlier executions left in memory), or "
            "hold less device memory during the sweep (free caches, e.g. "
            "torch.cuda.empty_cache(), or a smaller footprint).");
  EXPECT_NE(checkpoint_out_of_memory({130 * kGB, 11 * kGB, 0}).find("an unknown amount of host memory"),
            std::string::npos);
}

TEST(CheckpointEstimateTest, TheHostsAvailableMemoryIsRead) {
  // Linux has MemAvailable since 3.14; this machine's is more than a megabyte.
  EXPECT_GT(host_available_memory(), std::size_t{1} << 20);
}

}  // namespace
}  // namespace kscope::cupti
