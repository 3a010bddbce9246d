#pragma once
// The session's background sampler: one thread that reads the GPU (a GpuMonitor, NVML in
// practice) every kSamplePeriodSeconds and publishes the latest reading of each watched device
// with the time it was taken. The run hooks (thermal guard, telemetry) only copy the latest
// reading, so a run costs microseconds of host time instead of ~13 synchronous NVML calls
// (~1.4 ms on an H200 VM). See docs/telemetry.md, "How readings are taken".
//
// Threads: the GpuMonitor is only used by one thread at a time (the sampler's, or the caller of
// read_now/sample_once); the published readings are guarded by a mutex held only for a copy.

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "thermal/gpu_monitor.hpp"
#include "thermal/telemetry_source.hpp"
#include "thermal/thermal_clock.hpp"

namespace kscope::thermal {

/// Time between two rounds of readings. One full reading costs ~0.65 ms of NVML calls on an
/// H200 VM, so 20 ms keeps the sampler at ~3% of one core per watched GPU while runs longer than
/// 20 ms still get readings of their own.
inline constexpr double kSamplePeriodSeconds = 0.02;

class TelemetrySampler final : public TelemetrySource {
 public:
  /// `clock.now` stamps the readings (the hooks compute ages with the same clock); the thread
  /// waits `period_s` of real time between rounds.
  explicit TelemetrySampler(std::unique_ptr<GpuMonitor> monitor,
                            ThermalClock clock = ThermalClock::system(),
                            double period_s = kSamplePeriodSeconds);
  /// Stops and joins the thread.
  ~TelemetrySampler() override;
  TelemetrySampler(const TelemetrySampler&) = delete;
  TelemetrySampler& operator=(const TelemetrySampler&) = delete;

  /// Reads `device` now, on the calling thread, and watches it from then on: the session's first
  /// reading, so that thermal control and the first run have data. Returns that reading.
  DeviceReading read_now(int device);
  /// Watches `device` from now on without reading it: the thread reads it as soon as it runs.
  void watch(int device);
  /// The reading of `device`, waiting up to `timeout` for the thread's first one of it.
  DeviceReading first_reading(int device, std::chrono::milliseconds timeout);
  /// One round on the calling thread: reads every watched device once (a device that cannot be
  /// found is not retried). The thread's work; tests without a thread call it instead.
  void sample_once();
  /// Starts the thread (nothing when it runs). Throws std::system_error when it cannot start.
  void start();
  /// Stops and joins the thread (nothing when it does not run); the readings stay available.
  /// Returns within one reading (~0.65 ms): the wait between rounds is interrupted.
  void stop();
  [[nodiscard]] bool running() const { return thread_.joinable(); }
  [[nodiscard]] double period() const { return period_; }

  DeviceReading reading(int device) override;
  [[nodiscard]] std::string describe(int device) const override;

 private:
  /// What the monitor told about a device once, kept between readings (monitor thread only).
  struct Known {
    std::string description;
    std::string headroom_why;
  };
  void read_device(int device);
  void loop();

  std::unique_ptr<GpuMonitor> monitor_;
  ThermalClock clock_;
  double period_;

  std::mutex monitor_mutex_;  ///< one reading at a time; guards monitor_ and known_
  std::map<int, Known> known_;

  mutable std::mutex mutex_;  ///< guards the members below
  std::condition_variable wake_cv_;
  std::condition_variable read_cv_;  ///< a reading was published
  std::map<int, DeviceReading> readings_;  ///< every watched device
  std::map<int, std::string> descriptions_;
  bool stop_ = false;
  bool wake_ = false;  ///< a device was asked for: read now rather than at the next period

  std::thread thread_;  ///< last member: started last, joined before the others go
};

}  // namespace kscope::thermal
