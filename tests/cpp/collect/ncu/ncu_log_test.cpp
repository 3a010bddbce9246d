#include "collect/ncu/ncu_log.hpp"

#include <gtest/gtest.h>

#include "ncu_test_support.hpp"

namespace kscope::ncu {
namespace {

TEST(NcuLogTest, SplitsErrorsAndWarnings) {
  const auto log = parse_ncu_log(
      "==PROF== Connected to process 1255 (/tmp/app)\n"
      "==WARNING== Note: Running with unmodified GPU clocks.\n"
      "==ERROR== The application returned an error code (1).\r\n"
      "app output line\n"
      "==ERROR== Failed to profile \"vadd\" in process 1255\n");
  EXPECT_EQ(log.errors, (std::vector<std::string>{"The application returned an error code (1).",
                                                  "Failed to profile \"vadd\" in process 1255"}));
  EXPECT_EQ(log.warnings.size(), 1u);
  EXPECT_FALSE(log.counter_permission_denied);
  EXPECT_FALSE(log.no_kernels_profiled);
  EXPECT_FALSE(log.unknown_metric_error);
}

TEST(NcuLogTest, CounterPermission) {
  const auto log = parse_ncu_log(
      "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU "
      "Performance Counters on the target device 0.\n");
  EXPECT_TRUE(log.counter_permission_denied);
}

TEST(NcuLogTest, UnknownMetricsAndNoKernels) {
  const auto log = parse_ncu_log(
      "==ERROR== Failed to find metric regex:^not_a_metric$\n"
      "==ERROR== Failed to find metric other__thing.sum.\n"
      "==WARNING== No kernels were profiled.\n");
  EXPECT_TRUE(log.unknown_metric_error);
  EXPECT_EQ(log.unknown_metrics, (std::vector<std::string>{"not_a_metric", "other__thing.sum"}));
  EXPECT_TRUE(log.no_kernels_profiled);
}

TEST(NcuLogTest, KeepsTheLastProgressLines) {
  std::string text;
  for (int i = 0; i < 10; ++i) {
    text += "==PROF== Profiling \"k\" - " + std::to_string(i) + ": 0%....100% - 1 pass\n";
  }
  const auto log = parse_ncu_log(text + "==ERROR== LaunchFailed\n");
  ASSERT_EQ(log.progress_tail.size(), kNcuProgressTailLines);
  EXPECT_EQ(log.progress_tail.front(), "Profiling \"k\" - 4: 0%....100% - 1 pass");
  EXPECT_EQ(log.progress_tail.back(), "Profiling \"k\" - 9: 0%....100% - 1 pass");
}

TEST(NcuLogTest, MissingLogFileIsEmpty) {
  const auto log = read_ncu_log(testing::scratch_dir("ncu_log_missing") + "none.log");
  EXPECT_TRUE(log.errors.empty());
  EXPECT_TRUE(log.warnings.empty());
}

}  // namespace
}  // namespace kscope::ncu
