// The background sampler on its own: the synchronous first reading, rounds by hand and on its
// thread (publishing new readings, stopping and joining promptly), devices asked for later,
// devices that cannot be found, the headroom's "why" and errors of the monitor.
#include "thermal/telemetry_sampler.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "fake_gpu_monitor.hpp"

namespace kscope::thermal {
namespace {

using State = DeviceReading::State;

class TelemetrySamplerTest : public ::testing::Test {
 protected:
  TelemetrySamplerTest() {
    auto gpu = std::make_unique<testing::FakeGpuMonitor>();
    gpu->sample.sm_clock_mhz = 1000;
    gpu_ = gpu.get();
    gpu_owned_ = std::move(gpu);
  }
  /// Without a thread unless start() is called; stamps readings with the fake clock, or the real
  /// one for a sampler whose thread runs.
  std::unique_ptr<TelemetrySampler> make(double period_s = 0.001, bool real_clock = false) {
    return std::make_unique<TelemetrySampler>(
        std::move(gpu_owned_), real_clock ? ThermalClock::system() : clock_.clock(), period_s);
  }

  std::unique_ptr<testing::FakeGpuMonitor> gpu_owned_;
  testing::FakeGpuMonitor* gpu_ = nullptr;
  testing::FakeClock clock_;
};

TEST_F(TelemetrySamplerTest, ReadNowReadsOnTheCallingThreadAndWatchesTheDevice) {
  auto s = make();
  const DeviceReading r = s->read_now(0);
  EXPECT_EQ(r.state, State::kRead);
  EXPECT_EQ(r.sample.sm_clock_mhz, 1000);
  EXPECT_EQ(r.sample.headroom_c, 40);
  EXPECT_EQ(r.sample.temperature_c, 70);
  EXPECT_FALSE(r.sample.age_ms);  // the hooks stamp it
  EXPECT_EQ(r.taken_at, 1000.0);
  EXPECT_EQ(r.count, 1u);
  EXPECT_EQ(gpu_->calls_from(std::this_thread::get_id()), gpu_->reads.load() * 2);  // select + read
  EXPECT_EQ(s->describe(0), "fake GPU 0");
  clock_.now = 1001;
  s->sample_once();
  const DeviceReading next = s->reading(0);
  EXPECT_EQ(next.sample.sm_clock_mhz, 1001);
  EXPECT_EQ(next.taken_at, 1001.0);
  EXPECT_EQ(next.count, 2u);
}

TEST_F(TelemetrySamplerTest, ReadingACopyNeverCallsTheMonitor) {
  auto s = make();
  (void)s->read_now(0);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(s->reading(0).count, 1u);
  EXPECT_EQ(gpu_->reads.load(), 1);
}

TEST_F(TelemetrySamplerTest, ADeviceAskedForIsPendingUntilTheNextRound) {
  auto s = make();
  (void)s->read_now(0);
  EXPECT_EQ(s->reading(1).state, State::kPending);
  EXPECT_EQ(s->describe(1), "CUDA device 1");
  EXPECT_EQ(gpu_->reads_of[1], 0);
  s->sample_once();
  EXPECT_EQ(s->reading(1).state, State::kRead);
  EXPECT_EQ(s->describe(1), "fake GPU 1");
  s->sample_once();  // every watched device, every round
  EXPECT_EQ(gpu_->reads_of[0], 3);
  EXPECT_EQ(gpu_->reads_of[1], 2);
}

TEST_F(TelemetrySamplerTest, ADeviceThatCannotBeFoundIsNotRetried) {
  auto s = make();
  (void)s->read_now(0);
  (void)s->reading(7);
  s->sample_once();
  s->sample_once();
  const DeviceReading r = s->reading(7);
  EXPECT_EQ(r.state, State::kMissing);
  EXPECT_EQ(r.why, "no GPU 7");
  EXPECT_EQ(r.count, 1u);
  EXPECT_EQ(s->describe(7), "CUDA device 7");
}

TEST_F(TelemetrySamplerTest, AnUnreadableHeadroomSaysWhyAskedOnce) {
  gpu_->headrooms = {testing::kUnreadable};
  auto s = make();
  const DeviceReading r = s->read_now(0);
  EXPECT_EQ(r.state, State::kRead);
  EXPECT_FALSE(r.sample.headroom_c);
  EXPECT_EQ(r.why, "Not Supported (3)");
  s->sample_once();
  s->sample_once();
  EXPECT_EQ(s->reading(0).why, "Not Supported (3)");
  EXPECT_EQ(gpu_->headroom_calls, 1);
}

/// A monitor whose every call fails.
class ThrowingMonitor : public GpuMonitor {
 public:
  bool select(int, std::string*) override { throw std::runtime_error("driver gone"); }
  std::string describe() const override { return "?"; }
  std::optional<int> headroom(std::string*) override { return std::nullopt; }
  TelemetrySample read() override { return {}; }
};

TEST_F(TelemetrySamplerTest, ErrorsOfTheMonitorMakeTheDeviceMissing) {
  TelemetrySampler s(std::make_unique<ThrowingMonitor>(), clock_.clock(), 0.001);
  const DeviceReading r = s.read_now(0);
  EXPECT_EQ(r.state, State::kMissing);
  EXPECT_EQ(r.why, "driver gone");
  s.start();  // the thread survives them too
  (void)s.reading(1);
  EXPECT_TRUE(testing::eventually([&] { return s.reading(1).state == State::kMissing; }));
  s.stop();
}

TEST_F(TelemetrySamplerTest, TheThreadPublishesReadingsUntilStopped) {
  auto s = make(0.001, true);
  (void)s->read_now(0);
  s->start();
  EXPECT_TRUE(s->running());
  EXPECT_TRUE(testing::eventually([&] { return s->reading(0).count >= 5; }));
  EXPECT_EQ(gpu_->caller_threads(), 2u);
  s->stop();
  EXPECT_FALSE(s->running());
  const DeviceReading last = s->reading(0);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(s->reading(0).count, last.count);
  EXPECT_EQ(gpu_->reads.load(), static_cast<int>(last.count));
  EXPECT_GT(last.sample.sm_clock_mhz, 1000);
  s->stop();  // again: nothing
}

TEST_F(TelemetrySamplerTest, StopDoesNotWaitForThePeriod) {
  auto s = make(3600.0, true);
  (void)s->read_now(0);
  s->start();
  ASSERT_TRUE(testing::eventually([&] { return s->reading(0).count >= 2; }));  // the first round
  const auto t0 = std::chrono::steady_clock::now();
  s->stop();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(60));
}

TEST_F(TelemetrySamplerTest, ADeviceAskedForWakesTheThread) {
  auto s = make(3600.0, true);
  (void)s->read_now(0);
  s->start();
  ASSERT_TRUE(testing::eventually([&] { return s->reading(0).count >= 2; }));
  EXPECT_EQ(s->reading(1).state, State::kPending);
  EXPECT_TRUE(testing::eventually([&] { return s->reading(1).state == State::kRead; }));
}

TEST_F(TelemetrySamplerTest, DestroyingARunningSamplerJoinsItsThread) {
  gpu_->query_time = std::chrono::microseconds(100);  // likely mid-reading when destroyed
  auto s = make(0.001, true);
  (void)s->read_now(0);
  s->start();
  ASSERT_TRUE(testing::eventually([&] { return s->reading(0).count >= 2; }));
  s.reset();  // the monitor goes with it: a thread left behind would use it after free (ASan)
  SUCCEED();
}

}  // namespace
}  // namespace kscope::thermal
