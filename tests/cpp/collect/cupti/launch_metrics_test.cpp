// The cupti tool's launch__ and device__attribute_ metrics against what Nsight Compute reported
// for the same kernel: tests/fixtures/ncu/vadd_raw_nvtx.csv (ncu 2025.3.1, H200), a vector add
// of 65,536 blocks of 256 threads, 16 registers, no shared memory, carveout 32 KiB. The launch is
// built from the fixture's launch configuration and the device attributes from its
// device__attribute_ columns; every metric kscope serves that ncu reported must come out with
// ncu's value and unit.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "collect/cupti/launch_metrics.hpp"
#include "collect/ncu/ncu_raw_table.hpp"
#include "cuda/device_attributes.hpp"
#include "kscope/errors.hpp"
#include "../ncu/ncu_test_support.hpp"

namespace kscope::cupti {
namespace {

struct Fixture {
  ncu::NcuRawTable table = ncu::NcuRawTable::parse(testing::fixture_text("ncu/vadd_raw_nvtx.csv"),
                                                   "vadd_raw_nvtx.csv");
  const ncu::NcuResult& result = table.results().front();
  double value(const std::string& column) const {
    return table.number(result, static_cast<std::size_t>(table.find_column(column)));
  }
  std::map<std::string, double> attributes() const {
    std::map<std::string, double> a;
    for (const auto& name : cuda::device_attribute_names()) a[name] = value("device__attribute_" + name);
    return a;
  }
  KernelLaunch launch() const {
    KernelLaunch l;
    l.grid = {std::int64_t(value("launch__grid_dim_x")), std::int64_t(value("launch__grid_dim_y")),
              std::int64_t(value("launch__grid_dim_z"))};
    l.block = {std::int64_t(value("launch__block_dim_x")), std::int64_t(value("launch__block_dim_y")),
               std::int64_t(value("launch__block_dim_z"))};
    l.cluster = {std::int64_t(value("launch__cluster_dim_x")), std::int64_t(value("launch__cluster_dim_y")),
                 std::int64_t(value("launch__cluster_dim_z"))};
    l.registers_per_thread = std::int64_t(value("launch__registers_per_thread"));
    l.static_shared_bytes = std::int64_t(value("launch__shared_mem_per_block_static"));
    l.dynamic_shared_bytes = std::int64_t(value("launch__shared_mem_per_block_dynamic"));
    l.shared_config_bytes = std::int64_t(value("launch__shared_mem_config_size"));
    return l;
  }
};

TEST(LaunchMetricsTest, EveryServedMetricHasNcusValueAndUnit) {
  const Fixture f;
  const auto attributes = f.attributes();
  const auto launch = f.launch();
  std::vector<std::string> names = served_launch_metrics();
  for (const auto& a : cuda::device_attribute_names()) names.push_back("device__attribute_" + a);
  std::size_t compared = 0;
  for (const auto& name : names) {
    const long column = f.table.find_column(name);
    ASSERT_GE(column, 0) << name << " is not in ncu's report";
    const Measurement m = launch_measurement(name, &launch, attributes);
    const double want = f.value(name);
    EXPECT_NEAR(m.value, want, std::abs(want) * 5e-4) << name;  // ncu prints waves with 2 decimals
    const std::string ncu_unit = f.table.unit(static_cast<std::size_t>(column));
    EXPECT_EQ(m.unit.value_or(""), ncu_unit) << name;
    ++compared;
  }
  EXPECT_GE(compared, 80u);
}

TEST(LaunchMetricsTest, OccupancyLimitsFollowTheCalculator) {
  const Fixture f;
  auto attributes = f.attributes();
  KernelLaunch l = f.launch();
  EXPECT_EQ(occupancy_limits(l, attributes).active_blocks(), 8);  // 8 warps of 64
  l.registers_per_thread = 128;  // 4096 registers per warp: 4 warps per partition, 16 per SM
  l.block = {512, 1, 1};         // 16 warps: 1 block by registers, 4 by warps
  EXPECT_EQ(occupancy_limits(l, attributes).registers, 1);
  EXPECT_EQ(occupancy_limits(l, attributes).warps, 4);
  l.registers_per_thread = 64;  // 2048 per warp: 8 per partition, 32 per SM
  l.block = {256, 1, 1};        // 8 warps: 4 blocks
  EXPECT_EQ(occupancy_limits(l, attributes).registers, 4);
  l.registers_per_thread = 255;  // 8160 -> 8192 per warp: 8 warps per SM, less than one block
  EXPECT_EQ(occupancy_limits(l, attributes).registers, 1);
  l.block = {512, 1, 1};
  EXPECT_EQ(occupancy_limits(l, attributes).registers, 0);
  l.dynamic_shared_bytes = 48 * 1024;  // 49 KiB with the driver's 1 KiB, carveout 100 KiB -> 2
  l.shared_config_bytes = 100 * 1024;
  EXPECT_EQ(occupancy_limits(l, attributes).shared_mem, 2);
}

TEST(LaunchMetricsTest, KindsSeparateDeviceFromLaunchMetrics) {
  EXPECT_EQ(launch_metric_kind("launch__sm_count"), LaunchMetricKind::kDevice);
  EXPECT_EQ(launch_metric_kind("device__attribute_multiprocessor_count"), LaunchMetricKind::kDevice);
  EXPECT_EQ(launch_metric_kind("launch__grid_size"), LaunchMetricKind::kLaunch);
  EXPECT_EQ(launch_metric_kind("launch__occupancy_per_block_size"), std::nullopt);  // not served
  EXPECT_EQ(launch_metric_kind("device__attribute_display_name"), std::nullopt);    // a string
  EXPECT_EQ(launch_metric_kind("dram__bytes_read.sum"), std::nullopt);
}

TEST(LaunchMetricsTest, LaunchMetricsNeedTheLaunch) {
  const Fixture f;
  try {
    (void)launch_measurement("launch__grid_size", nullptr, f.attributes());
    FAIL() << "expected ToolError";
  } catch (const ToolError& e) {
    EXPECT_STREQ(e.what(), "metric 'launch__grid_size' needs the kernel's launch configuration");
  }
  EXPECT_DOUBLE_EQ(launch_measurement("launch__sm_count", nullptr, f.attributes()).value, 132);
}

}  // namespace
}  // namespace kscope::cupti
