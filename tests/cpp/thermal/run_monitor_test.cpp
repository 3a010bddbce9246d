// The per-run hooks: thermal guard first, then the telemetry reading before the run, another
// after it; warm-up runs unrecorded; several passes bracketed by one before/after pair; what the
// journal drains; and the NVML-less machine (one warning, nothing recorded).
#include <gtest/gtest.h>

#include "fake_gpu_monitor.hpp"
#include "nvml/nvml_library.hpp"
#include "thermal/run_monitor.hpp"

namespace kscope::thermal {
namespace {

class RunMonitorTest : public ::testing::Test {
 protected:
  RunMonitorTest() {
    options_.on_warning = [this](std::string_view text) { warnings_.emplace_back(text); };
    options_.log = [](std::string_view) {};
    auto thermal = std::make_unique<testing::FakeGpuMonitor>();
    auto telemetry = std::make_unique<testing::FakeGpuMonitor>();
    thermal->name = "thermal";
    thermal->events = &events_;
    telemetry->name = "telemetry";
    telemetry->events = &events_;
    telemetry->sample.sm_clock_mhz = 1000;
    telemetry->sample.power_w = 300.5;
    telemetry->sample.clock_event_reasons = 0x4;
    thermal_ = thermal.get();
    telemetry_ = telemetry.get();
    thermal_owned_ = std::move(thermal);
    telemetry_owned_ = std::move(telemetry);
  }
  std::unique_ptr<RunMonitor> make() {
    logger_.emplace(options_);
    return std::make_unique<RunMonitor>(options_, *logger_, std::move(thermal_owned_),
                                        std::move(telemetry_owned_), [this] { return device_; },
                                        clock_.clock());
  }
  static void run(RunMonitor& m, RunId id) {
    m.before_run(id);
    m.after_run(id);
  }

  Options options_;
  std::optional<Logger> logger_;
  std::unique_ptr<testing::FakeGpuMonitor> thermal_owned_, telemetry_owned_;
  testing::FakeGpuMonitor* thermal_ = nullptr;
  testing::FakeGpuMonitor* telemetry_ = nullptr;
  testing::FakeClock clock_;
  std::vector<std::string> events_;
  std::vector<std::string> warnings_;
  int device_ = 0;
};

TEST_F(RunMonitorTest, GuardsThenReadsBeforeAndReadsAfterEachMeasuredRun) {
  auto m = make();
  ASSERT_NE(m->controller(), nullptr);
  events_.clear();
  run(*m, RunId{0, 0, false});
  EXPECT_EQ(events_, (std::vector<std::string>{"thermal headroom", "telemetry read", "telemetry read"}));
  ASSERT_EQ(m->telemetry().size(), 1u);
  const RunTelemetry& t = m->telemetry()[0];
  EXPECT_EQ(t.config, 0u);
  EXPECT_EQ(t.run, 0u);
  EXPECT_EQ(t.device, 0);
  ASSERT_TRUE(t.before && t.after);
  EXPECT_EQ(t.before->sm_clock_mhz, 1000);
  EXPECT_EQ(t.after->sm_clock_mhz, 1001);
  EXPECT_EQ(t.after->power_w, 300.5);
  EXPECT_EQ(t.after->clock_event_reasons, 0x4u);
  EXPECT_EQ(t.cooling_wait_s, 0.0);
}

TEST_F(RunMonitorTest, WarmupRunsAreGuardedButNotRecorded) {
  auto m = make();
  events_.clear();
  run(*m, RunId{0, 0, true});
  EXPECT_EQ(events_, std::vector<std::string>{"thermal headroom"});
  EXPECT_TRUE(m->telemetry().empty());
}

TEST_F(RunMonitorTest, PassesOfOneRunShareOneEntry) {
  auto m = make();
  for (int pass = 0; pass < 3; ++pass) run(*m, RunId{1, 4, false});
  ASSERT_EQ(m->telemetry().size(), 1u);
  // Read before the first pass and after each pass: 1000, 1001, 1002, 1003; the last counts.
  EXPECT_EQ(m->telemetry()[0].before->sm_clock_mhz, 1000);
  EXPECT_EQ(m->telemetry()[0].after->sm_clock_mhz, 1003);
  EXPECT_EQ(telemetry_->reads, 4);
}

TEST_F(RunMonitorTest, CoolingPauseIsRecordedOnTheRunItDelayed) {
  thermal_->headrooms = {40, 40, 5, 5, 30};
  auto m = make();
  run(*m, RunId{0, 0, false});
  run(*m, RunId{0, 1, false});
  ASSERT_EQ(m->telemetry().size(), 2u);
  EXPECT_EQ(m->telemetry()[0].cooling_wait_s, 0.0);
  EXPECT_DOUBLE_EQ(m->telemetry()[1].cooling_wait_s, 1.0);
}

TEST_F(RunMonitorTest, DrainHandsOverEachRunOnce) {
  auto m = make();
  run(*m, RunId{0, 0, false});
  run(*m, RunId{0, 1, false});
  EXPECT_EQ(m->drain().size(), 2u);
  EXPECT_TRUE(m->drain().empty());
  run(*m, RunId{1, 0, false});
  const auto next = m->drain();
  ASSERT_EQ(next.size(), 1u);
  EXPECT_EQ(next[0].config, 1u);
  EXPECT_EQ(m->telemetry().size(), 3u);
}

TEST_F(RunMonitorTest, TelemetryFollowsTheCurrentDevice) {
  auto m = make();
  run(*m, RunId{0, 0, false});
  device_ = 1;
  run(*m, RunId{0, 1, false});
  EXPECT_EQ(m->telemetry()[1].device, 1);
  EXPECT_EQ(telemetry_->selections, (std::vector<int>{0, 1}));
}

TEST_F(RunMonitorTest, UnknownDeviceRecordsNoReadingsWithOneWarning) {
  auto m = make();
  device_ = 9;
  run(*m, RunId{0, 0, false});
  run(*m, RunId{0, 1, false});
  ASSERT_EQ(m->telemetry().size(), 2u);
  EXPECT_FALSE(m->telemetry()[0].before);
  EXPECT_FALSE(m->telemetry()[0].after);
  // One from thermal control (device changed), one from telemetry.
  ASSERT_EQ(warnings_.size(), 2u);
  EXPECT_NE(warnings_[1].find("no GPU telemetry (clocks, temperature, power) for CUDA device 9"),
            std::string::npos)
      << warnings_[1];
}

TEST_F(RunMonitorTest, ThermalOffStillRecordsTelemetry) {
  options_.thermal_mode = "off";
  auto m = make();
  EXPECT_EQ(m->controller(), nullptr);
  run(*m, RunId{0, 0, false});
  EXPECT_EQ(thermal_->headroom_calls, 0);
  EXPECT_EQ(m->telemetry().size(), 1u);
}

TEST_F(RunMonitorTest, WithoutMonitorsNothingHappens) {
  logger_.emplace(options_);
  RunMonitor m(options_, *logger_, nullptr, nullptr, [] { return 0; });
  run(m, RunId{0, 0, false});
  EXPECT_TRUE(m.telemetry().empty());
  EXPECT_TRUE(m.drain().empty());
  EXPECT_EQ(m.controller(), nullptr);
}

TEST_F(RunMonitorTest, FinishReportsPausesAtInfo) {
  std::string log;
  options_.log = [&log](std::string_view text) { log += text; };
  thermal_->headrooms = {40, 5, 30};
  auto m = make();
  run(*m, RunId{0, 0, false});
  m->finish();
  EXPECT_NE(log.find("Thermal control paused 1 time (0.5 s in total) to let the GPU cool; "
                     "thermal_cont ended at 20°C"),
            std::string::npos)
      << log;
}

TEST(RunMonitorCreateTest, WithoutNvmlThermalControlIsOffWithOneWarning) {
  std::string why;
  if (nvml::NvmlLibrary::load(&why)) GTEST_SKIP() << "NVML is available on this machine";
  Options options;
  std::vector<std::string> warnings;
  options.on_warning = [&](std::string_view text) { warnings.emplace_back(text); };
  const Logger log(options);
  auto m = RunMonitor::create(options, log);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->controller(), nullptr);
  m->before_run(RunId{0, 0, false});  // no NVML, no CUDA call: nothing happens
  m->after_run(RunId{0, 0, false});
  EXPECT_TRUE(m->telemetry().empty());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].rfind("thermal control is off and no GPU telemetry (clocks, temperature, "
                              "power) is recorded: cannot load libnvidia-ml.so.1",
                              0),
            0u)
      << warnings[0];

  options.thermal_mode = "off";
  warnings.clear();
  const Logger quiet(options);
  (void)RunMonitor::create(options, quiet);
  EXPECT_TRUE(warnings.empty());
}

}  // namespace
}  // namespace kscope::thermal
