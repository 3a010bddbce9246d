// The per-run hooks over the telemetry sampler: the first reading taken when the session starts;
// runs only copy the latest reading (never call the monitor) and record its age; warm-up runs
// unrecorded; several passes bracketed by one before/after pair; pauses polling the cache while
// the sampler reads; device switches; what the journal drains; the NVML-less machine. Most tests
// drive the sampler by hand (no thread); the last ones run its thread, and one measures the cost
// of the hooks with a slow GPU.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

#include "fake_gpu_monitor.hpp"
#include "nvml/nvml_library.hpp"
#include "thermal/run_monitor.hpp"

namespace kscope::thermal {
namespace {

class RunMonitorTest : public ::testing::Test {
 protected:
  RunMonitorTest() {
    options_.on_warning = [this](std::string_view text) { warnings_.emplace_back(text); };
    options_.log = [this](std::string_view text) { log_ += text; };
    options_.verbosity = Verbosity::kDebug;
    auto gpu = std::make_unique<testing::FakeGpuMonitor>();
    gpu->sample.sm_clock_mhz = 1000;
    gpu->sample.power_w = 300.5;
    gpu->sample.clock_event_reasons = 0x4;
    gpu_ = gpu.get();
    gpu_owned_ = std::move(gpu);
  }
  /// A RunMonitor whose sampler has no thread (`period` nullopt: the test calls sample()) or
  /// reads every `period` seconds.
  std::unique_ptr<RunMonitor> make(std::optional<double> period = std::nullopt) {
    logger_.emplace(options_);
    auto m = std::make_unique<RunMonitor>(options_, *logger_, std::move(gpu_owned_),
                                          [this] { return device_.load(); },
                                          period ? ThermalClock::system() : clock_.clock(), period);
    // While thermal control pauses, time passes and the sampler reads the GPU.
    if (!period) clock_.on_sleep = [s = m->sampler()] { s->sample_once(); };
    return m;
  }
  static void run(RunMonitor& m, RunId id) {
    m.before_run(id);
    m.after_run(id);
  }

  Options options_;
  std::optional<Logger> logger_;
  std::unique_ptr<testing::FakeGpuMonitor> gpu_owned_;
  testing::FakeGpuMonitor* gpu_ = nullptr;
  testing::FakeClock clock_;
  std::vector<std::string> warnings_;
  std::string log_;
  std::atomic<int> device_{0};
};

TEST_F(RunMonitorTest, TheFirstReadingIsTakenWhenTheSessionStarts) {
  auto m = make();
  EXPECT_EQ(gpu_->reads.load(), 1);  // on this thread; thermal control and telemetry share it
  EXPECT_GT(gpu_->calls_from(std::this_thread::get_id()), 0);
  EXPECT_EQ(gpu_->caller_threads(), 1u);
  ASSERT_NE(m->controller(), nullptr);
  EXPECT_TRUE(m->controller()->enabled());
  EXPECT_NE(log_.find("[thermal] watching fake GPU 0: thermal headroom 40°C"), std::string::npos)
      << log_;
  const DeviceReading r = m->sampler()->reading(0);
  EXPECT_EQ(r.state, DeviceReading::State::kRead);
  EXPECT_EQ(r.sample.sm_clock_mhz, 1000);
  EXPECT_EQ(r.taken_at, 1000.0);
}

TEST_F(RunMonitorTest, WithoutThermalControlTheThreadTakesTheFirstReadingAndRunZeroWaitsForIt) {
  options_.thermal.mode = "off";
  gpu_->query_time = std::chrono::milliseconds(5);  // a reading: six queries, 30 ms
  const auto t0 = std::chrono::steady_clock::now();
  auto m = make(10.0);  // a thread, and no second round within the test
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(25))
      << "the session's thread took the first reading itself";
  EXPECT_EQ(m->controller(), nullptr);
  run(*m, RunId{0, 0, true});  // a warm-up run neither waits nor records
  run(*m, RunId{0, 0, false});
  ASSERT_EQ(m->telemetry().size(), 1u);
  const RunTelemetry& t = m->telemetry().front();
  ASSERT_TRUE(t.before && t.after) << "run 0 has the first reading";
  EXPECT_EQ(t.before->sm_clock_mhz, 1000);
  EXPECT_EQ(gpu_->reads.load(), 1);
  EXPECT_EQ(gpu_->calls_from(std::this_thread::get_id()), 0) << "only the sampler's thread reads";
}

TEST_F(RunMonitorTest, RunsOnlyCopyTheLatestReading) {
  auto m = make();
  const int calls = gpu_->calls_from(std::this_thread::get_id());
  for (std::size_t i = 0; i < 5; ++i) run(*m, RunId{0, i, false});
  EXPECT_EQ(gpu_->calls_from(std::this_thread::get_id()), calls);
  EXPECT_EQ(gpu_->reads.load(), 1);
  ASSERT_EQ(m->telemetry().size(), 5u);
  for (const RunTelemetry& t : m->telemetry()) {  // runs shorter than the period share readings
    ASSERT_TRUE(t.before && t.after);
    EXPECT_EQ(t.before->sm_clock_mhz, 1000);
    EXPECT_EQ(t.after->sm_clock_mhz, 1000);
    EXPECT_EQ(t.after->power_w, 300.5);
    EXPECT_EQ(t.after->clock_event_reasons, 0x4u);
    EXPECT_EQ(t.after->headroom_c, 40);
    EXPECT_EQ(t.after->age_ms, 0.0);  // the fake clock did not move
  }
}

TEST_F(RunMonitorTest, EachRunRecordsTheLatestReadingAndItsAge) {
  auto m = make();  // read at t = 1000 s: sm 1000
  clock_.now += 0.004;
  m->before_run(RunId{0, 0, false});
  clock_.now += 0.006;
  m->sampler()->sample_once();  // t = 1000.010: sm 1001
  clock_.now += 0.0025;
  m->after_run(RunId{0, 0, false});
  const RunTelemetry& t = m->telemetry().at(0);
  ASSERT_TRUE(t.before && t.after);
  EXPECT_EQ(t.device, 0);
  EXPECT_EQ(t.before->sm_clock_mhz, 1000);
  EXPECT_DOUBLE_EQ(*t.before->age_ms, 4.0);
  EXPECT_EQ(t.after->sm_clock_mhz, 1001);
  EXPECT_DOUBLE_EQ(*t.after->age_ms, 2.5);
  EXPECT_EQ(t.cooling_wait_s, 0.0);
}

TEST_F(RunMonitorTest, WarmupRunsAreGuardedButNotRecorded) {
  gpu_->headrooms = {40, 5, 30};
  auto m = make();
  m->sampler()->sample_once();  // hot
  run(*m, RunId{0, 0, true});
  EXPECT_EQ(m->controller()->pauses(), 1u);
  EXPECT_TRUE(m->telemetry().empty());
}

TEST_F(RunMonitorTest, PassesOfOneRunShareOneEntry) {
  auto m = make();
  for (int pass = 0; pass < 3; ++pass) {
    run(*m, RunId{1, 4, false});
    m->sampler()->sample_once();
  }
  ASSERT_EQ(m->telemetry().size(), 1u);
  // Readings 1000 (start), 1001, 1002 between passes: "before" the first pass, "after" the last.
  EXPECT_EQ(m->telemetry()[0].before->sm_clock_mhz, 1000);
  EXPECT_EQ(m->telemetry()[0].after->sm_clock_mhz, 1002);
}

TEST_F(RunMonitorTest, ThermalGuardUsesTheCachedHeadroomAndPausesWhileTheSamplerReads) {
  gpu_->headrooms = {40, 5, 12, 30};
  auto m = make();
  run(*m, RunId{0, 0, false});  // cached 40: no pause, no reading
  EXPECT_EQ(gpu_->reads.load(), 1);
  m->sampler()->sample_once();  // the GPU got hot: 5
  run(*m, RunId{0, 1, false});  // pauses; each 0.5 s poll sees a new reading: 12, then 30
  ASSERT_EQ(m->telemetry().size(), 2u);
  EXPECT_EQ(m->telemetry()[0].cooling_wait_s, 0.0);
  EXPECT_DOUBLE_EQ(m->telemetry()[1].cooling_wait_s, 1.0);
  EXPECT_EQ(clock_.slept, (std::vector<double>{0.5, 0.5}));
  // The run after the pause is recorded with the reading that ended it.
  EXPECT_EQ(m->telemetry()[1].before->headroom_c, 30);
  EXPECT_DOUBLE_EQ(*m->telemetry()[1].before->age_ms, 0.0);
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

TEST_F(RunMonitorTest, DeviceSwitchIsReadByTheSamplerOnItsNextRound) {
  auto m = make();
  run(*m, RunId{0, 0, false});
  device_ = 1;
  run(*m, RunId{0, 1, false});  // device 1 not read yet: no reading rather than another GPU's
  EXPECT_EQ(gpu_->reads_of[1], 0);
  m->sampler()->sample_once();  // reads both devices
  run(*m, RunId{0, 2, false});
  const auto& t = m->telemetry();
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].device, 0);
  EXPECT_TRUE(t[0].before);
  EXPECT_EQ(t[1].device, 1);
  EXPECT_FALSE(t[1].before);
  EXPECT_FALSE(t[1].after);
  EXPECT_EQ(t[2].device, 1);
  ASSERT_TRUE(t[2].before);
  EXPECT_EQ(gpu_->reads_of[1], 1);
  EXPECT_EQ(m->controller()->device(), 1);
  EXPECT_TRUE(warnings_.empty());
  EXPECT_NE(log_.find("[thermal] the current CUDA device changed: watching fake GPU 1"),
            std::string::npos)
      << log_;
}

TEST_F(RunMonitorTest, UnknownDeviceRecordsNoReadingsWithOneWarning) {
  auto m = make();
  device_ = 9;
  run(*m, RunId{0, 0, false});
  m->sampler()->sample_once();  // cannot be found: not retried
  m->sampler()->sample_once();
  run(*m, RunId{0, 1, false});
  run(*m, RunId{0, 2, false});
  ASSERT_EQ(m->telemetry().size(), 3u);
  for (const auto& t : m->telemetry()) {
    EXPECT_FALSE(t.before);
    EXPECT_FALSE(t.after);
  }
  EXPECT_EQ(m->sampler()->reading(9).count, 1u);
  // One from thermal control (device changed), one from telemetry.
  ASSERT_EQ(warnings_.size(), 2u);
  EXPECT_NE(warnings_[0].find("the current CUDA device changed to 9, which cannot be found"),
            std::string::npos)
      << warnings_[0];
  EXPECT_NE(warnings_[1].find("no GPU telemetry (clocks, temperature, power) for CUDA device 9: "
                              "no GPU 9."),
            std::string::npos)
      << warnings_[1];
}

TEST_F(RunMonitorTest, PinnedThermalDeviceIsReadToo) {
  options_.thermal.device = 1;
  auto m = make();
  EXPECT_EQ(gpu_->reads_of[0], 1);
  EXPECT_EQ(gpu_->reads_of[1], 1);
  ASSERT_NE(m->controller(), nullptr);
  EXPECT_EQ(m->controller()->device(), 1);
  m->sampler()->sample_once();
  EXPECT_EQ(gpu_->reads_of[0], 2);
  EXPECT_EQ(gpu_->reads_of[1], 2);
}

TEST_F(RunMonitorTest, ThermalOffStillRecordsTelemetry) {
  options_.thermal.mode = "off";
  auto m = make();
  EXPECT_EQ(m->controller(), nullptr);
  run(*m, RunId{0, 0, false});
  EXPECT_EQ(gpu_->headroom_calls, 0);
  EXPECT_EQ(m->telemetry().size(), 1u);
}

TEST_F(RunMonitorTest, WithoutMonitorNothingHappens) {
  logger_.emplace(options_);
  RunMonitor m(options_, *logger_, nullptr, [] { return 0; });
  run(m, RunId{0, 0, false});
  EXPECT_TRUE(m.telemetry().empty());
  EXPECT_TRUE(m.drain().empty());
  EXPECT_EQ(m.controller(), nullptr);
  EXPECT_EQ(m.sampler(), nullptr);
  m.finish();
}

TEST_F(RunMonitorTest, FinishReportsPausesAtInfo) {
  options_.verbosity = Verbosity::kInfo;
  gpu_->headrooms = {40, 5, 30};
  auto m = make();
  m->sampler()->sample_once();
  run(*m, RunId{0, 0, false});
  m->finish();
  EXPECT_NE(log_.find("Thermal control paused 1 time (0.5 s in total) to let the GPU cool; "
                      "thermal_cont ended at 20°C"),
            std::string::npos)
      << log_;
}

TEST_F(RunMonitorTest, WithTheThreadRunsSeeNewReadingsAndNeverCallTheMonitor) {
  auto m = make(0.001);
  const auto self = std::this_thread::get_id();
  const int calls = gpu_->calls_from(self);  // the first reading
  EXPECT_GT(calls, 0);
  std::size_t i = 0;
  const bool fresh = testing::eventually([&] {
    run(*m, RunId{0, i++, false});
    return m->telemetry().back().after->sm_clock_mhz > 1001;
  });
  EXPECT_TRUE(fresh) << "the sampler published no new reading";
  EXPECT_EQ(gpu_->calls_from(self), calls) << "a run hook called the GPU monitor";
  EXPECT_EQ(gpu_->caller_threads(), 2u);
  m->finish();  // stops and joins the thread
  const int reads = gpu_->reads;
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(gpu_->reads.load(), reads);
}

TEST_F(RunMonitorTest, WithTheThreadAPauseEndsWhenTheSamplerReadsACoolGpu) {
  std::atomic<int> headroom{40};
  gpu_->live_headroom = &headroom;
  logger_.emplace(options_);
  int sleeps = 0;
  ThermalClock clock = ThermalClock::system();
  clock.sleep = [&](double) {  // a poll: 1 ms instead of 0.5 s; the GPU cools after the third
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (++sleeps == 3) headroom = 30;
  };
  RunMonitor m(options_, *logger_, std::move(gpu_owned_), [] { return 0; }, clock, 0.001);
  headroom = 5;
  ASSERT_TRUE(testing::eventually([&] { return m.sampler()->reading(0).sample.headroom_c == 5; }));
  m.before_run(RunId{0, 0, false});
  m.after_run(RunId{0, 0, false});
  EXPECT_EQ(m.controller()->pauses(), 1u);
  EXPECT_GE(sleeps, 3);
  EXPECT_GT(m.telemetry().at(0).cooling_wait_s, 0.0);
  EXPECT_EQ(m.telemetry().at(0).before->headroom_c, 30);
}

TEST_F(RunMonitorTest, WithTheThreadADeviceSwitchIsReadWithoutWaitingForThePeriod) {
  auto m = make(60.0);  // a period far longer than the test: only the wake-up can read device 1
  run(*m, RunId{0, 0, false});
  device_ = 1;
  std::size_t i = 1;
  EXPECT_TRUE(testing::eventually([&] {
    run(*m, RunId{0, i++, false});
    return m->telemetry().back().before.has_value();
  }));
  EXPECT_EQ(m->telemetry().back().device, 1);
  EXPECT_EQ(m->controller()->device(), 1);
}

TEST_F(RunMonitorTest, WithTheThreadAFailedSessionLeavesNoThreadBehind) {
  gpu_->headrooms = {40, 5};
  options_.thermal.mode = "manual";
  options_.thermal.timeout = 0;
  logger_.emplace(options_);
  ThermalClock clock = ThermalClock::system();
  clock.sleep = [](double) { std::this_thread::sleep_for(std::chrono::milliseconds(1)); };
  auto m = std::make_unique<RunMonitor>(options_, *logger_, std::move(gpu_owned_),
                                        [] { return 0; }, clock, 0.001);
  ASSERT_TRUE(testing::eventually([&] { return m->sampler()->reading(0).sample.headroom_c == 5; }));
  EXPECT_THROW(m->before_run(RunId{0, 0, false}), CoolingTimeoutError);
  m.reset();  // as profile() unwinding: joins the thread before the monitor goes (ASan/TSan)
}

// Not a timed assertion: prints what the hooks cost with a GPU as slow as NVML on the H200 VM
// (~100 us per query), next to what reading it in the hooks cost before the sampler.
TEST_F(RunMonitorTest, HooksCostMicrosecondsWithASlowGpu) {
  gpu_->query_time = std::chrono::microseconds(100);
  testing::FakeGpuMonitor direct;
  direct.query_time = gpu_->query_time;
  auto m = make(kSamplePeriodSeconds);
  const auto self = std::this_thread::get_id();
  const int calls = gpu_->calls_from(self);
  constexpr int kRuns = 2000;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < kRuns; ++i) run(*m, RunId{0, static_cast<std::size_t>(i), false});
  const double hooks_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / kRuns;
  constexpr int kDirect = 10;
  const auto t1 = std::chrono::steady_clock::now();
  for (int i = 0; i < kDirect; ++i) {  // the old hooks: headroom, then a full reading before and after
    std::string why;
    (void)direct.headroom(&why);
    (void)direct.read();
    (void)direct.read();
  }
  const double direct_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t1).count() / kDirect;
  m->finish();
  std::printf("[ micro-bench ] before_run + after_run: %.2f us per run over %d runs (sampler: %d "
              "readings meanwhile); reading the GPU in the hooks: %.0f us per run\n",
              hooks_us, kRuns, gpu_->reads.load(), direct_us);
  EXPECT_EQ(gpu_->calls_from(self), calls);
  EXPECT_EQ(m->telemetry().size(), static_cast<std::size_t>(kRuns));
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
  EXPECT_EQ(m->sampler(), nullptr);  // no thread either
  m->before_run(RunId{0, 0, false});  // no NVML, no CUDA call: nothing happens
  m->after_run(RunId{0, 0, false});
  EXPECT_TRUE(m->telemetry().empty());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].rfind("thermal control is off and no GPU telemetry (clocks, temperature, "
                              "power) is recorded: cannot load libnvidia-ml.so.1",
                              0),
            0u)
      << warnings[0];

  options.thermal.mode = "off";
  warnings.clear();
  const Logger quiet(options);
  (void)RunMonitor::create(options, quiet);
  EXPECT_TRUE(warnings.empty());
}

}  // namespace
}  // namespace kscope::thermal
