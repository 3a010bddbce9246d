#include "thermal/run_monitor.hpp"

#include <cstdio>

#include "cuda/device_identity.hpp"
#include "nvml/nvml_library.hpp"
#include "thermal/nvml_gpu_monitor.hpp"

namespace kscope::thermal {

std::unique_ptr<RunMonitor> RunMonitor::create(const Options& options, const Logger& log) {
  std::string why;
  std::shared_ptr<const nvml::NvmlLibrary> library = nvml::NvmlLibrary::load(&why);
  if (!library) {
    if (options.thermal_mode != "off") {
      log.warn("thermal control is off and no GPU telemetry (clocks, temperature, power) is "
               "recorded: " + why + ". Set thermal_mode to 'off' to silence this warning.");
    } else {
      log.debug("[thermal] no GPU telemetry: " + why);
    }
    return std::make_unique<RunMonitor>(options, log, nullptr, nullptr, cuda::current_device);
  }
  log.debug("[thermal] NVML loaded from " + library->loaded_from());
  return std::make_unique<RunMonitor>(options, log, std::make_unique<NvmlGpuMonitor>(library),
                                      std::make_unique<NvmlGpuMonitor>(library), cuda::current_device);
}

RunMonitor::RunMonitor(const Options& options, const Logger& log,
                       std::unique_ptr<GpuMonitor> thermal_monitor,
                       std::unique_ptr<GpuMonitor> telemetry_monitor,
                       std::function<int()> current_device, ThermalClock clock)
    : log_(log),
      thermal_monitor_(std::move(thermal_monitor)),
      telemetry_monitor_(std::move(telemetry_monitor)) {
  if (thermal_monitor_ && options.thermal_mode != "off") {
    controller_ = std::make_unique<ThermalController>(options, *thermal_monitor_, current_device,
                                                      log, std::move(clock));
    if (!controller_->init()) controller_.reset();
  }
  if (telemetry_monitor_) {
    recorder_ = std::make_unique<TelemetryRecorder>(*telemetry_monitor_, std::move(current_device), log);
  }
}

void RunMonitor::before_run(const RunId& run) {
  double waited = 0;
  if (controller_) {
    controller_->guard();
    waited = controller_->last_wait_seconds();
  }
  if (recorder_) recorder_->before_run(run, waited);
}

void RunMonitor::after_run(const RunId& run) {
  if (recorder_) recorder_->after_run(run);
}

void RunMonitor::finish() const {
  if (!controller_ || controller_->pauses() == 0) return;
  char total[32];
  std::snprintf(total, sizeof total, "%.1f", controller_->total_wait_seconds());
  log_.info("Thermal control paused " + std::to_string(controller_->pauses()) + " time" +
            (controller_->pauses() == 1 ? "" : "s") + " (" + total +
            " s in total) to let the GPU cool; thermal_cont ended at " +
            std::to_string(controller_->thermal_cont()) + "°C");
}

const std::vector<RunTelemetry>& RunMonitor::telemetry() const {
  static const std::vector<RunTelemetry> kNone;
  return recorder_ ? recorder_->telemetry() : kNone;
}

std::vector<RunTelemetry> RunMonitor::drain() { return recorder_ ? recorder_->drain() : std::vector<RunTelemetry>{}; }

}  // namespace kscope::thermal
