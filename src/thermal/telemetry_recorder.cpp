#include "thermal/telemetry_recorder.hpp"

#include <cmath>

namespace kscope::thermal {

TelemetryRecorder::TelemetryRecorder(TelemetrySource& readings, std::function<int()> current_device,
                                     const Logger& log, std::function<double()> now)
    : readings_(readings),
      current_device_(std::move(current_device)),
      log_(log),
      now_(std::move(now)) {}

std::optional<TelemetrySample> TelemetryRecorder::latest(int device) {
  DeviceReading r = readings_.reading(device);
  switch (r.state) {
    case DeviceReading::State::kPending:  // just switched to: read within one sampling period
      return std::nullopt;
    case DeviceReading::State::kMissing:
      if (!warned_) {
        log_.warn("no GPU telemetry (clocks, temperature, power) for CUDA device " +
                  std::to_string(device) + ": " + r.why + ".");
        warned_ = true;
      }
      return std::nullopt;
    case DeviceReading::State::kRead:
      break;
  }
  // Microseconds are plenty: the sampling period is milliseconds.
  r.sample.age_ms = std::round((now_() - r.taken_at) * 1e6) / 1e3;
  return std::move(r.sample);
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
  t.device = current_device_();
  t.before = latest(t.device);
  all_.push_back(std::move(t));
}

void TelemetryRecorder::after_run(const RunId& run) {
  if (run.warmup || !is_last(run)) return;
  all_.back().after = latest(all_.back().device);
}

std::vector<RunTelemetry> TelemetryRecorder::drain() {
  std::vector<RunTelemetry> out(all_.begin() + static_cast<std::ptrdiff_t>(drained_), all_.end());
  drained_ = all_.size();
  return out;
}

}  // namespace kscope::thermal
