// Processed telemetry columns and the throttling warning, on synthetic readings.
#include <gtest/gtest.h>

#include <cmath>

#include "core/telemetry_summary.hpp"

namespace kscope {
namespace {

TelemetrySample sample(int sm, int temp, double power, std::optional<std::uint64_t> reasons) {
  TelemetrySample s;
  s.sm_clock_mhz = sm;
  s.memory_clock_mhz = 3201;
  s.temperature_c = temp;
  s.headroom_c = 87 - temp;
  s.power_w = power;
  s.clock_event_reasons = reasons;
  return s;
}

RunTelemetry run(std::size_t config, std::size_t r, std::optional<TelemetrySample> before,
                 std::optional<TelemetrySample> after) {
  RunTelemetry t;
  t.config = config;
  t.run = r;
  t.before = before;
  t.after = after;
  return t;
}

TEST(TelemetrySummaryTest, SlowdownReasonsArePowerAndThermalOnly) {
  for (std::uint64_t bit : {0x4u, 0x8u, 0x20u, 0x40u, 0x80u}) {
    EXPECT_TRUE(slowed_down(sample(1980, 50, 300, bit))) << bit;
  }
  for (std::uint64_t bit : {0x0u, 0x1u, 0x2u, 0x10u, 0x100u}) {
    EXPECT_FALSE(slowed_down(sample(1980, 50, 300, bit))) << bit;
  }
  EXPECT_FALSE(slowed_down(sample(1980, 50, 300, std::nullopt)));
}

TEST(TelemetrySummaryTest, ThrottledIsTheFractionOfRunsWithASlowdownBeforeOrAfter) {
  const std::vector<RunTelemetry> t = {
      run(0, 0, sample(345, 40, 80, 0x1), sample(1980, 50, 500, 0x0)),     // idle, then fine
      run(0, 1, sample(1980, 50, 500, 0x0), sample(1755, 60, 700, 0x4)),   // power cap after
      run(0, 2, sample(1755, 60, 700, 0x40), sample(1980, 62, 690, 0x0)),  // thermal before
      run(0, 3, sample(1980, 55, 600, 0x2), sample(1980, 58, 610, 0x2)),   // app clocks: not
  };
  const auto s = summarize_telemetry(t);
  ASSERT_EQ(s.count(0), 1u);
  EXPECT_DOUBLE_EQ(s.at(0).throttled, 0.5);
  EXPECT_EQ(s.at(0).throttled_runs, 2u);
  EXPECT_EQ(s.at(0).runs_with_reasons, 4u);
  EXPECT_EQ(s.at(0).slowdown_seen, 0x44u);
  // From the readings after each run: the idle 345 MHz / 80 W before run 0 do not count.
  EXPECT_DOUBLE_EQ(s.at(0).clock_mhz_min, 1755);
  EXPECT_DOUBLE_EQ(s.at(0).temp_c_max, 62);
  EXPECT_DOUBLE_EQ(s.at(0).power_w_avg, (500 + 700 + 690 + 610) / 4.0);
}

TEST(TelemetrySummaryTest, ConfigsAreSummarisedSeparately) {
  const std::vector<RunTelemetry> t = {
      run(0, 0, sample(1980, 50, 500, 0), sample(1980, 51, 510, 0)),
      run(2, 0, sample(1980, 70, 700, 0x4), sample(1600, 80, 700, 0x4)),
  };
  const auto s = summarize_telemetry(t);
  EXPECT_EQ(s.size(), 2u);
  EXPECT_DOUBLE_EQ(s.at(0).throttled, 0.0);
  EXPECT_DOUBLE_EQ(s.at(2).throttled, 1.0);
  EXPECT_DOUBLE_EQ(s.at(2).clock_mhz_min, 1600);
  EXPECT_EQ(s.count(1), 0u);
}

TEST(TelemetrySummaryTest, MissingReadingsGiveNaN) {
  TelemetrySample partial;  // a GPU that reports nothing
  const std::vector<RunTelemetry> t = {run(0, 0, partial, std::nullopt), run(0, 1, std::nullopt, partial)};
  const auto s = summarize_telemetry(t).at(0);
  EXPECT_TRUE(std::isnan(s.clock_mhz_min));
  EXPECT_TRUE(std::isnan(s.temp_c_max));
  EXPECT_TRUE(std::isnan(s.power_w_avg));
  EXPECT_TRUE(std::isnan(s.throttled));
}

TEST(TelemetrySummaryTest, ColumnsAreFilledPerConfigAndNaNWithout) {
  std::vector<ProcessedRow> rows(3);
  rows[0].config = 0;
  rows[1].config = 0;
  rows[2].config = 1;
  const auto s = summarize_telemetry({run(0, 0, std::nullopt, sample(1900, 66, 650.25, 0x4))});
  add_telemetry_columns(rows, s);
  for (int i = 0; i < 2; ++i) {
    EXPECT_DOUBLE_EQ(rows[i].clock_mhz_min, 1900);
    EXPECT_DOUBLE_EQ(rows[i].temp_c_max, 66);
    EXPECT_DOUBLE_EQ(rows[i].power_w_avg, 650.25);
    EXPECT_DOUBLE_EQ(rows[i].throttled, 1.0);
  }
  EXPECT_TRUE(std::isnan(rows[2].clock_mhz_min));
  EXPECT_TRUE(std::isnan(rows[2].throttled));
}

TEST(TelemetrySummaryTest, WarningNamesTheThrottledConfigs) {
  const auto configs = kscope::configs({1024, 2048, 4096}, "n");
  const std::vector<RunTelemetry> t = {
      run(0, 0, sample(1980, 50, 500, 0), sample(1980, 51, 510, 0)),
      run(1, 0, sample(1980, 50, 500, 0), sample(1980, 51, 510, 0x4)),
      run(1, 1, sample(1980, 50, 500, 0), sample(1980, 51, 510, 0)),
      run(2, 0, sample(1980, 50, 500, 0x20), sample(1980, 51, 510, 0x4)),
  };
  const auto warning = throttle_warning(summarize_telemetry(t), configs);
  ASSERT_TRUE(warning);
  EXPECT_EQ(warning->rfind("the GPU slowed down for power or heat during runs of config 1 (n=2048): "
                           "1 of 2 runs, reasons 0x4; config 2 (n=4096): 1 of 1 runs, reasons 0x24. ",
                           0),
            0u)
      << *warning;
  EXPECT_EQ(warning->find("config 0"), std::string::npos);
}

TEST(TelemetrySummaryTest, NoWarningWithoutThrottling) {
  const auto configs = kscope::configs({1024}, "n");
  EXPECT_FALSE(throttle_warning(summarize_telemetry({run(0, 0, sample(1980, 50, 500, 0x1), std::nullopt)}), configs));
  EXPECT_FALSE(throttle_warning({}, configs));
}

}  // namespace
}  // namespace kscope
