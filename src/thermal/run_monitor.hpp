#pragma once
// Everything kscope does with the GPU's thermals around each run, for the run environment's
// hooks: the thermal guard (ThermalController) and then the telemetry reading before the run,
// the telemetry reading after it. Built from Options; without NVML it does nothing, after one
// warning when thermal control was asked for.

#include <functional>
#include <memory>
#include <vector>

#include "core/kernel_record.hpp"
#include "core/logger.hpp"
#include "kscope/options.hpp"
#include "kscope/results.hpp"
#include "thermal/gpu_monitor.hpp"
#include "thermal/telemetry_recorder.hpp"
#include "thermal/thermal_clock.hpp"
#include "thermal/thermal_controller.hpp"

namespace kscope::thermal {

class RunMonitor {
 public:
  /// The real one: NVML through dlopen, the CUDA device current on the calling thread. Never
  /// throws because NVML is missing.
  [[nodiscard]] static std::unique_ptr<RunMonitor> create(const Options& options, const Logger& log);

  /// `thermal_monitor` feeds thermal control, `telemetry_monitor` the telemetry; either may be
  /// null (that part is off). Thermal control is initialised here (see ThermalController::init).
  RunMonitor(const Options& options, const Logger& log, std::unique_ptr<GpuMonitor> thermal_monitor,
             std::unique_ptr<GpuMonitor> telemetry_monitor, std::function<int()> current_device,
             ThermalClock clock = ThermalClock::system());

  /// Before-run hook: thermal guard (may pause; throws CoolingTimeoutError), then telemetry.
  void before_run(const RunId& run);
  /// After-run hook: telemetry.
  void after_run(const RunId& run);
  /// After the sweep: says at INFO how long thermal control paused, if it did.
  void finish() const;

  [[nodiscard]] const std::vector<RunTelemetry>& telemetry() const;
  /// Telemetry recorded since the previous drain() (the journal's source).
  [[nodiscard]] std::vector<RunTelemetry> drain();
  /// Thermal control, or null when thermal_mode is "off" or NVML is missing.
  [[nodiscard]] const ThermalController* controller() const { return controller_.get(); }

 private:
  const Logger& log_;
  std::unique_ptr<GpuMonitor> thermal_monitor_;
  std::unique_ptr<GpuMonitor> telemetry_monitor_;
  std::unique_ptr<ThermalController> controller_;
  std::unique_ptr<TelemetryRecorder> recorder_;
};

}  // namespace kscope::thermal
