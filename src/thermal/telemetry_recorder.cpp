#include "thermal/telemetry_recorder.hpp"

namespace kscope::thermal {

TelemetryRecorder::TelemetryRecorder(GpuMonitor& monitor, std::function<int()> current_device,
                                     const Logger& log)
    : monitor_(monitor), current_device_(std::move(current_device)), log_(log) {}

std::optional<TelemetrySample> TelemetryRecorder::read(int* device) {
  *device = current_device_();
  std::string why;
  if (!monitor_.select(*device, &why)) {
    if (!warned_) {
      log_.warn("no GPU telemetry (clocks, temperature, power) for CUDA device " +
                std::to_string(*device) + ": " + why + ".");
      warned_ = true;
    }
    return std::nullopt;
  }
  return monitor_.read();
}

bool TelemetryRecorder::is_last(const RunId& run) const {
  return !all_.empty() && all_.back().config == run.config && all_.back().run == run.run;
}

void TelemetryRecorder::before_run(const RunId& run, double cooling_wait_s) {
  if (run.warmup) return;
  if (is_last(run)) {  // a later pass of the same run
    all_.back().cooling_wait_s += cooling_wait_s;
    return;
  }
  RunTelemetry t;
  t.config = run.config;
  t.run = run.run;
  t.cooling_wait_s = cooling_wait_s;
  t.before = read(&t.device);
  all_.push_back(std::move(t));
}

void TelemetryRecorder::after_run(const RunId& run) {
  if (run.warmup || !is_last(run)) return;
  int device = 0;
  all_.back().after = read(&device);
}

std::vector<RunTelemetry> TelemetryRecorder::drain() {
  std::vector<RunTelemetry> out(all_.begin() + static_cast<std::ptrdiff_t>(drained_), all_.end());
  drained_ = all_.size();
  return out;
}

}  // namespace kscope::thermal
