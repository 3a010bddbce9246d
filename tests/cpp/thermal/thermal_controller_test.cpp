// Thermal control against scripted readings (each guard and each poll sees the next headroom):
// the reference's behaviour (nsight-python thermovision tests) plus the timeout errors, device
// following (also to a device the sampler has not read yet) and the "turns itself off" cases.
#include <gtest/gtest.h>

#include "kscope/profile.hpp"

#include "fake_gpu_monitor.hpp"
#include "kscope/errors.hpp"
#include "thermal/thermal_controller.hpp"

namespace kscope::thermal {
namespace {

class ThermalControllerTest : public ::testing::Test {
 protected:
  ThermalControllerTest() {
    options_.verbosity = Verbosity::kDebug;
    options_.log = [this](std::string_view text) { log_ += text; };
    options_.on_warning = [this](std::string_view text) { warnings_.emplace_back(text); };
  }
  ThermalController make() {
    if (!logger_) logger_.emplace(options_);
    return ThermalController(options_, gpu_, [this] {
      ++current_device_calls_;
      return current_device_;
    }, *logger_, clock_.clock());
  }
  /// Runs the guard `n` times.
  static void guard(ThermalController& c, int n) {
    for (int i = 0; i < n; ++i) c.guard();
  }
  /// Runs the guard once and returns the CoolingTimeoutError's text ("" when none was thrown).
  static std::string timeout_text(ThermalController& c) {
    try {
      c.guard();
    } catch (const CoolingTimeoutError& e) {
      return e.what();
    }
    return "";
  }

  Options options_;
  std::optional<Logger> logger_;
  testing::FakeReadings gpu_;
  testing::FakeClock clock_;
  int current_device_ = 0;
  int current_device_calls_ = 0;
  std::string log_;
  std::vector<std::string> warnings_;
};

TEST_F(ThermalControllerTest, DefaultsFollowTheReference) {
  auto c = make();
  EXPECT_TRUE(c.adaptive());
  EXPECT_EQ(c.thermal_wait(), 10);
  EXPECT_EQ(c.thermal_cont(), 20);
  EXPECT_EQ(c.thermal_timeout(), 180);
}

TEST_F(ThermalControllerTest, HotGpuWaits) {
  gpu_.headrooms = {40, 1, 100};  // init probe, then hot, then cooled
  auto c = make();
  ASSERT_TRUE(c.init());
  c.guard();
  EXPECT_GT(clock_.sleeps, 0);
  EXPECT_EQ(c.pauses(), 1u);
  EXPECT_DOUBLE_EQ(c.last_wait_seconds(), 0.5);
  c.guard();  // cool now: no pause, and the previous wait is not reported again
  EXPECT_DOUBLE_EQ(c.last_wait_seconds(), 0.0);
}

TEST_F(ThermalControllerTest, CoolGpuNeverWaits) {
  gpu_.headrooms = {100};
  auto c = make();
  ASSERT_TRUE(c.init());
  guard(c, 50);
  EXPECT_EQ(clock_.sleeps, 0);
  EXPECT_EQ(c.pauses(), 0u);
}

TEST_F(ThermalControllerTest, PollsEveryHalfSecondUntilThermalCont) {
  gpu_.headrooms = {40, 8, 12, 19, 20};
  auto c = make();
  ASSERT_TRUE(c.init());
  c.guard();
  EXPECT_EQ(clock_.slept, (std::vector<double>{0.5, 0.5, 0.5}));
  EXPECT_DOUBLE_EQ(c.last_wait_seconds(), 1.5);
  EXPECT_TRUE(c.counting());  // counting starts right after a pause
}

// A Ctrl-C while the guard waits for the GPU to cool (kscope::set_interrupt_check): the
// check's exception ends the wait at its next poll.
TEST_F(ThermalControllerTest, AnInterruptEndsTheCoolingWait) {
  struct Interrupted {};
  gpu_.headrooms = {40, 5};  // stays hot
  auto c = make();
  ASSERT_TRUE(c.init());
  int polls = 0;
  set_interrupt_check([&] {
    if (++polls == 3) throw Interrupted{};
  });
  EXPECT_THROW(c.guard(), Interrupted);
  set_interrupt_check({});
  EXPECT_EQ(clock_.slept, (std::vector<double>{0.5, 0.5}));
}

TEST_F(ThermalControllerTest, AdaptiveIncreaseAfterFewRuns) {
  // Reference test: start (25), 3 runs at 15, hot (8) for a while, then cooled (25).
  gpu_.headrooms = {40, 25, 15, 15, 15, 8, 8, 8, 8, 8, 8, 25};
  auto c = make();
  ASSERT_TRUE(c.init());
  guard(c, 15);
  EXPECT_EQ(c.thermal_cont(), 23);
}

TEST_F(ThermalControllerTest, AdaptiveDecreaseAfterManyRuns) {
  // Reference test: start (25), 55 runs at 12, hot (8) for a while, then cooled (25).
  gpu_.headrooms = {40, 25};
  for (int i = 0; i < 55; ++i) gpu_.headrooms.push_back(12);
  for (int i = 0; i < 9; ++i) gpu_.headrooms.push_back(8);
  gpu_.headrooms.push_back(25);
  auto c = make();
  ASSERT_TRUE(c.init());
  guard(c, 70);
  EXPECT_EQ(c.thermal_cont(), 17);
}

TEST_F(ThermalControllerTest, AdaptiveStepsStayWithinTwelveAndFifty) {
  options_.thermal.cont = 49;
  gpu_.headrooms = {60, 60, 30, 8, 60, 30, 8, 60};  // two pauses after 2 runs each
  auto up = make();
  ASSERT_TRUE(up.init());
  guard(up, 4);
  EXPECT_EQ(up.thermal_cont(), 50);  // 49 + 3 capped at 50
  guard(up, 3);
  EXPECT_EQ(up.thermal_cont(), 50);

  options_.thermal.cont = 13;
  gpu_.headroom_calls = 0;
  gpu_.headrooms = {40, 20};
  for (int i = 0; i < 60; ++i) gpu_.headrooms.push_back(11);
  gpu_.headrooms.push_back(8);
  gpu_.headrooms.push_back(20);
  auto down = make();
  ASSERT_TRUE(down.init());
  guard(down, 63);
  EXPECT_EQ(down.thermal_cont(), 12);  // 13 - 3 floored at 12
}

TEST_F(ThermalControllerTest, BetweenFiveAndFiftyRunsKeepsThermalCont) {
  gpu_.headrooms = {40, 25};
  for (int i = 0; i < 20; ++i) gpu_.headrooms.push_back(15);
  gpu_.headrooms.push_back(8);
  gpu_.headrooms.push_back(25);
  auto c = make();
  ASSERT_TRUE(c.init());
  guard(c, 25);
  EXPECT_EQ(c.thermal_cont(), 20);
  EXPECT_EQ(c.pauses(), 1u);
}

TEST_F(ThermalControllerTest, ManualModeNeverAdapts) {
  options_.thermal.mode = "manual";
  options_.thermal.wait = 15;
  options_.thermal.cont = 30;
  gpu_.headrooms = {40, 35, 20, 20, 10, 35};
  auto c = make();
  EXPECT_FALSE(c.adaptive());
  ASSERT_TRUE(c.init());
  guard(c, 10);
  EXPECT_EQ(c.thermal_cont(), 30);
  EXPECT_EQ(c.thermal_wait(), 15);
  EXPECT_EQ(c.pauses(), 1u);
}

TEST_F(ThermalControllerTest, ManualTimeoutFailsWithTheReferenceText) {
  options_.thermal.mode = "manual";
  gpu_.headrooms = {40, 5};
  auto c = make();
  ASSERT_TRUE(c.init());
  const double start = clock_.now;
  EXPECT_EQ(timeout_text(c),
            "Timeout after 180s. Cannot reach thermal_cont=20°C (current thermal headroom: 5°C). "
            "Try: increase thermal_wait, decrease thermal_cont, or increase thermal_timeout.");
  EXPECT_NEAR(clock_.now - start, 180.5, 1e-9);  // gave up right after the timeout passed
}

TEST_F(ThermalControllerTest, AdaptiveTimeoutLowersThermalContThenFailsAtTwelve) {
  gpu_.headrooms = {40, 5};
  auto c = make();
  ASSERT_TRUE(c.init());
  const double start = clock_.now;
  EXPECT_EQ(timeout_text(c),
            "Adaptive thermal control reached minimum thermal_cont=12°C but GPU thermal headroom "
            "is only 5°C. Cannot continue profiling.");
  EXPECT_EQ(c.thermal_cont(), 12);  // 20 -> 17 -> 14 -> 12: three timeouts
  EXPECT_GT(clock_.now - start, 3 * 180.0);
  EXPECT_LT(clock_.now - start, 3 * 181.0);
  EXPECT_NE(log_.find("[thermal] adaptive mode: no cooling to 20°C within 180s, decreasing "
                      "thermal_cont to 17°C"),
            std::string::npos)
      << log_;
}

TEST_F(ThermalControllerTest, AdaptiveTimeoutResumesOnceHeadroomReachesLoweredCont) {
  gpu_.headrooms = {40, 8, 15};
  auto c = make();
  ASSERT_TRUE(c.init());
  c.guard();  // 15 < 20, < 17; then thermal_cont 14 <= 15 ends the pause
  EXPECT_EQ(c.thermal_cont(), 14);
  EXPECT_EQ(c.pauses(), 1u);
}

TEST_F(ThermalControllerTest, TimeoutIsExceptionOfTheThermalHierarchy) {
  options_.thermal.mode = "manual";
  options_.thermal.timeout = 2;
  gpu_.headrooms = {40, 5};
  auto c = make();
  ASSERT_TRUE(c.init());
  EXPECT_THROW(c.guard(), ThermalControlError);
}

TEST_F(ThermalControllerTest, FollowsTheCurrentDeviceUnlessPinned) {
  gpu_.headrooms = {40};
  auto c = make();
  ASSERT_TRUE(c.init());
  c.guard();
  current_device_ = 1;
  c.guard();
  c.guard();
  EXPECT_EQ(gpu_.selections, (std::vector<int>{0, 1}));
  EXPECT_EQ(c.device(), 1);
  EXPECT_NE(log_.find("[thermal] the current CUDA device changed: watching fake GPU 1"),
            std::string::npos);
}

TEST_F(ThermalControllerTest, ADeviceNotReadYetLeavesTheRunUnguardedThenIsWatched) {
  gpu_.headrooms = {40, 40, 5, 30};
  auto c = make();
  ASSERT_TRUE(c.init());
  current_device_ = 1;
  gpu_.pending = {1};  // the sampler has not read it yet
  c.guard();
  EXPECT_TRUE(c.enabled());
  EXPECT_EQ(c.device(), 0);
  EXPECT_EQ(c.pauses(), 0u);
  EXPECT_TRUE(warnings_.empty());
  EXPECT_NE(log_.find("[thermal] the current CUDA device changed to 1, not read yet: this run is "
                      "not guarded"),
            std::string::npos)
      << log_;
  gpu_.pending.clear();  // read now: 40, then hot (5) and cooled (30)
  c.guard();
  EXPECT_EQ(c.device(), 1);
  EXPECT_NE(log_.find("[thermal] the current CUDA device changed: watching fake GPU 1"),
            std::string::npos);
  c.guard();
  EXPECT_EQ(c.pauses(), 1u);
  EXPECT_EQ(gpu_.selections, (std::vector<int>{0, 1}));
}

TEST_F(ThermalControllerTest, PinnedDeviceIsNeverReResolved) {
  options_.thermal.device = 1;
  gpu_.headrooms = {40};
  auto c = make();
  ASSERT_TRUE(c.init());
  current_device_ = 0;
  guard(c, 3);
  EXPECT_EQ(gpu_.selections, (std::vector<int>{1}));
  EXPECT_EQ(current_device_calls_, 0);
  EXPECT_EQ(c.device(), 1);
}

TEST_F(ThermalControllerTest, OffModeReadsNothingAndSaysNothing) {
  options_.thermal.mode = "off";
  auto c = make();
  EXPECT_FALSE(c.init());
  c.guard();
  EXPECT_EQ(gpu_.headroom_calls, 0);
  EXPECT_TRUE(gpu_.selections.empty());
  EXPECT_TRUE(warnings_.empty());
}

TEST_F(ThermalControllerTest, UnreadableHeadroomTurnsItselfOffWithOneWarning) {
  gpu_.headrooms = {testing::kUnreadable};
  auto c = make();
  EXPECT_FALSE(c.init());
  guard(c, 5);
  EXPECT_FALSE(c.enabled());
  EXPECT_EQ(gpu_.headroom_calls, 1);
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_EQ(warnings_[0],
            "thermal control is off: fake GPU 0 does not report its thermal headroom (Not "
            "Supported (3)). Runs are not paused to let the GPU cool; set thermal_mode to 'off' "
            "to silence this warning.");
}

TEST_F(ThermalControllerTest, UnknownPinnedDeviceTurnsItselfOff) {
  options_.thermal.device = 5;
  auto c = make();
  EXPECT_FALSE(c.init());
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_NE(warnings_[0].find("cannot watch thermal_device 5 (no GPU 5)"), std::string::npos)
      << warnings_[0];
}

TEST_F(ThermalControllerTest, SwitchToAnUnknownDeviceTurnsItselfOffOnce) {
  auto c = make();
  ASSERT_TRUE(c.init());
  current_device_ = 7;
  guard(c, 3);
  EXPECT_FALSE(c.enabled());
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_NE(warnings_[0].find("changed to 7"), std::string::npos) << warnings_[0];
}

TEST_F(ThermalControllerTest, HeadroomLostMidSessionSkipsTheGuardWithOneWarning) {
  gpu_.headrooms = {40, testing::kUnreadable};
  auto c = make();
  ASSERT_TRUE(c.init());
  guard(c, 4);
  EXPECT_TRUE(c.enabled());
  EXPECT_EQ(clock_.sleeps, 0);
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_NE(warnings_[0].find("runs go unguarded"), std::string::npos);
}

TEST_F(ThermalControllerTest, DebugMessagesArePrefixed) {
  gpu_.headrooms = {40, 1, 100};
  auto c = make();
  ASSERT_TRUE(c.init());
  c.guard();
  EXPECT_NE(log_.find("[kscope] [thermal] watching fake GPU 0: thermal headroom 40°C, auto mode, "
                      "pause at <= 10°C, resume at >= 20°C, timeout 180s\n"),
            std::string::npos)
      << log_;
  EXPECT_NE(log_.find("[kscope] [thermal] GPU hot: 70°C (thermal headroom: 1°C)\n"), std::string::npos)
      << log_;
  EXPECT_NE(log_.find("[kscope] [thermal] Waited 0.5s → Cooled to 70°C (thermal headroom: 100°C)\n"),
            std::string::npos)
      << log_;
}

TEST_F(ThermalControllerTest, NothingIsPrintedBelowDebug) {
  options_.verbosity = Verbosity::kInfo;
  gpu_.headrooms = {40, 1, 100};
  auto c = make();
  ASSERT_TRUE(c.init());
  c.guard();
  EXPECT_EQ(log_, "");
}

}  // namespace
}  // namespace kscope::thermal
