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

}  // namespace
}  // namespace kscope::cupti
