#pragma once
// Everything kscope does with the GPU's thermals around each run, for the run environment's
// hooks: the thermal guard (ThermalController) and then the telemetry before the run, the
// telemetry after it. Both read the background sampler's latest reading (TelemetrySampler, one
// thread per session), so the hooks cost microseconds and never call NVML. Built from Options;
// without NVML it does nothing, after one warning when thermal control was asked for.

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "core/kernel_record.hpp"
#include "core/logger.hpp"
#include "kscope/options.hpp"
#include "kscope/results.hpp"
#include "thermal/gpu_monitor.hpp"
#include "thermal/telemetry_recorder.hpp"
#include "thermal/telemetry_sampler.hpp"
#include "thermal/thermal_clock.hpp"
#include "thermal/thermal_controller.hpp"

namespace kscope::thermal {

/// Lets go of the NVML that RunMonitor::create keeps loaded (nvmlShutdown once no session holds
/// it); the next create() loads it again. kscope::release() calls it.
void release_nvml();

/// Starts loading NVML on a thread of its own (nothing when it is loaded or loading), so that
/// its ~5-20 ms in a process's first session overlap the device and tool set-up; create() waits
/// for it.
void preload_nvml();

class RunMonitor {
 public:
  /// The real one: NVML through dlopen, the CUDA device current on the calling thread. Never
  /// throws because NVML is missing. NVML is loaded by the first call of the process and stays
  /// loaded until release_nvml().
  [[nodiscard]] static std::unique_ptr<RunMonitor> create(const Options& options, const Logger& log);

  /// `monitor` is what the sampler reads (null: no telemetry, no thermal control). The first
  /// readings (the current device, and thermal_device when it pins another) are taken here, on
  /// the calling thread; then thermal control is initialised (ThermalController::init) and the
  /// sampler's thread started, reading every `sample_period_s`. With `sample_period_s` nullopt
  /// no thread is started: tests drive the sampler with sampler()->sample_once().
  RunMonitor(const Options& options, const Logger& log, std::unique_ptr<GpuMonitor> monitor,
             std::function<int()> current_device, ThermalClock clock = ThermalClock::system(),
             std::optional<double> sample_period_s = kSamplePeriodSeconds);
  /// Stops and joins the sampler's thread (also when the session failed).
  ~RunMonitor();
  RunMonitor(const RunMonitor&) = delete;
  RunMonitor& operator=(const RunMonitor&) = delete;

  /// Before-run hook: thermal guard (may pause; throws CoolingTimeoutError), then telemetry.
  void before_run(const RunId& run);
  /// After-run hook: telemetry.
  void after_run(const RunId& run);
  /// After the sweep: stops the sampler and says at INFO how long thermal control paused, if it
  /// did.
  void finish();

  [[nodiscard]] const std::vector<RunTelemetry>& telemetry() const;
  /// Telemetry recorded since the previous drain() (the journal's source).
  [[nodiscard]] std::vector<RunTelemetry> drain();
  /// Thermal control, or null when thermal_mode is "off" or NVML is missing.
  [[nodiscard]] const ThermalController* controller() const { return controller_.get(); }
  /// The background sampler, or null when NVML is missing.
  [[nodiscard]] TelemetrySampler* sampler() { return sampler_.get(); }

 private:
  const Logger& log_;
  std::unique_ptr<TelemetrySampler> sampler_;  ///< first: outlives the two that read it
  std::unique_ptr<ThermalController> controller_;
  std::unique_ptr<TelemetryRecorder> recorder_;
  /// The device whose first reading the thread takes (thermal control off); the first measured
  /// run waits up to kFirstReadingWait for it. nullopt once it came, or when read at creation.
  std::optional<int> first_device_;
  static constexpr std::chrono::milliseconds kFirstReadingWait{200};
};

}  // namespace kscope::thermal
