// `kscope query-metrics` and `kscope check-metrics`: the built binary is run as a user would,
// offline with --chip GH100; output, errors and exit codes are checked.
#include <gtest/gtest.h>

#include <string>

#include "cli_runner.hpp"
#include "collect/cupti/host_api_guard.hpp"

namespace kscope {
namespace {

using testing::has;
using testing::kscope_cli;

// The commands that read a chip's catalogue use the CUPTI host API.
using MetricCatalogCommandsTest = testing::CuptiHostApiTest;

TEST_F(MetricCatalogCommandsTest, QueryMetricsListsAChipOffline) {
  const auto r = kscope_cli("query-metrics --chip gh100 --filter dram__bytes_read");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("Chip GH100\n", 0), 0u) << r.out;
  EXPECT_TRUE(has(r.out, "Metric Name")) << r.out;
  EXPECT_TRUE(has(r.out, "dram__bytes_read  Counter      byte         # of bytes read from DRAM"))
      << r.out;
  EXPECT_TRUE(has(r.out, "1 base metric(s)")) << r.out;
}

TEST_F(MetricCatalogCommandsTest, QueryMetricsCsvUsesNcuColumns) {
  const auto r = kscope_cli("query-metrics --chip GH100 --csv --filter gpu__time_duration");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("\"Metric name\",\"Metric type\",\"Metric unit\",\"Metric description\"\n", 0), 0u)
      << r.out;
  EXPECT_TRUE(has(r.out, "\"gpu__time_duration\",\"Counter\",\"ns\",")) << r.out;
}

TEST_F(MetricCatalogCommandsTest, QueryMetricsListsChips) {
  const auto r = kscope_cli("query-metrics --list-chips");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "GH100\n")) << r.out;
  EXPECT_TRUE(has(r.out, "GB100\n")) << r.out;
}

TEST_F(MetricCatalogCommandsTest, UnknownChipIsAUsageErrorNamingTheKnownOnes) {
  for (const char* command : {"query-metrics", "check-metrics gpu__time_duration.sum"}) {
    const std::string name = std::string(command).substr(0, std::string(command).find(' '));
    const auto r = kscope_cli(std::string(command) + " --chip XX100");
    EXPECT_EQ(r.status, 2) << command;
    EXPECT_EQ(r.err.rfind("kscope: error: Unknown chip 'XX100'. This CUPTI (CUDA 13.0) knows: ", 0),
              0u)
        << r.err;
    EXPECT_TRUE(has(r.err, "GH100")) << r.err;
    EXPECT_TRUE(has(r.err, "\nRun 'kscope " + name + " --help' for usage.\n"))
        << r.err;
  }
}

TEST(MetricCommandsTest, WithoutChipAndWithoutGpuSaysNoCudaDevice) {
  std::string reason;
  if (testing::gpu_available(&reason)) GTEST_SKIP() << "a GPU is present";
  for (const char* args : {"query-metrics", "check-metrics dram__bytes_read.sum"}) {
    const auto r = kscope_cli(args);
    EXPECT_EQ(r.status, 1) << args;
    EXPECT_TRUE(has(r.err, "kscope: error: no CUDA device: ")) << r.err;
    EXPECT_TRUE(has(r.err, "--chip")) << r.err;
  }
}

TEST_F(MetricCatalogCommandsTest, CheckMetricsPrintsTypesUnitsAndPasses) {
  const auto r = kscope_cli(
      "check-metrics --chip GH100 gpu__time_duration.sum dram__bytes_read.sum");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "ok  gpu__time_duration.sum  Counter  ns  ")) << r.out;
  EXPECT_TRUE(has(r.out, "Replay passes: 1\n")) << r.out;
  EXPECT_TRUE(has(r.out, "no replay")) << r.out;
  const auto sm = kscope_cli("check-metrics --chip GH100 sm__throughput.avg.pct_of_peak_sustained_elapsed");
  ASSERT_EQ(sm.status, 0) << sm.err;
  EXPECT_TRUE(has(sm.out, "Replay passes: 8\n")) << sm.out;
  EXPECT_TRUE(has(sm.out, "metric_replay 'application'")) << sm.out;
}

TEST_F(MetricCatalogCommandsTest, CheckMetricsRejectsUnknownNamesWithSuggestions) {
  const auto r = kscope_cli("check-metrics --chip GH100 gpu__time_duration.sum dram__byte_read.sum");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(has(r.err, "kscope: error: Invalid value ['dram__byte_read.sum'] for 'metrics' parameter"))
      << r.err;
  EXPECT_TRUE(has(r.err, "did you mean 'dram__bytes_read.sum'")) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

// The message named kscope::profile(), which the command never calls (issue 38).
TEST_F(MetricCatalogCommandsTest, CheckMetricsNamesItselfForAnEmptyOrUnknownName) {
  for (const std::string name : {"", "dram__byte_read.sum"}) {
    const auto r = kscope_cli("check-metrics --chip GH100 '" + name + "'");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err.rfind("kscope: error: Invalid value ['" + name +
                              "'] for 'metrics' parameter for kscope check-metrics.\n",
                          0),
              0u)
        << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

TEST_F(MetricCatalogCommandsTest, CheckMetricsPointsNcuOnlyNamesToNcu) {
  const auto r = kscope_cli("check-metrics --chip GH100 launch__occupancy_per_block_size");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(has(r.err, "Use tool 'ncu'")) << r.err;
}

TEST(MetricCommandsTest, QueryMetricsLaunchListsTheServedLaunchAndDeviceMetrics) {
  const auto r = kscope_cli("query-metrics --launch");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "launch__grid_size\n")) << r.out;
  EXPECT_TRUE(has(r.out, "launch__waves_per_multiprocessor\n")) << r.out;
  EXPECT_TRUE(has(r.out, "device__attribute_multiprocessor_count\n")) << r.out;
  EXPECT_FALSE(has(r.out, "launch__occupancy_per_block_size")) << r.out;
}

TEST_F(MetricCatalogCommandsTest, CheckMetricsAcceptsTheServedLaunchMetricsWithoutPasses) {
  const auto r = kscope_cli("check-metrics --chip GH100 launch__grid_size dram__bytes_read.sum");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "ok  launch__grid_size  (launch/device metric")) << r.out;
  EXPECT_TRUE(has(r.out, "Replay passes: 1")) << r.out;
}

TEST(MetricCommandsTest, CheckMetricsNeedsAName) {
  const auto r = kscope_cli("check-metrics --chip GH100");
  EXPECT_EQ(r.status, 2);  // a usage error (CLI11 said 106)
  EXPECT_TRUE(has(r.err, "metrics is required")) << r.err;
}

TEST(MetricCommandsTest, HelpDocumentsTheSubcommandsAndTheirOptions) {
  const auto top = kscope_cli("--help");
  ASSERT_EQ(top.status, 0);
  EXPECT_TRUE(has(top.out, "query-metrics")) << top.out;
  EXPECT_TRUE(has(top.out, "check-metrics")) << top.out;
  const auto query = kscope_cli("query-metrics --help");
  ASSERT_EQ(query.status, 0);
  for (const char* option : {"--chip", "--filter", "--csv", "--list-chips", "Examples:"}) {
    EXPECT_TRUE(has(query.out, option)) << option << "\n" << query.out;
  }
  const auto check = kscope_cli("check-metrics --help");
  ASSERT_EQ(check.status, 0);
  for (const char* part : {"--chip", "metrics TEXT", "Exit status"}) {
    EXPECT_TRUE(has(check.out, part)) << part << "\n" << check.out;
  }
}

}  // namespace
}  // namespace kscope
