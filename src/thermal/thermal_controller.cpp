#include "thermal/thermal_controller.hpp"

#include <algorithm>
#include <cstdio>

#include "core/interrupt_check.hpp"
#include "kscope/errors.hpp"

namespace kscope::thermal {
namespace {

std::string deg(int celsius) { return std::to_string(celsius) + "°C"; }

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1fs", s);
  return buf;
}

}  // namespace

ThermalController::ThermalController(const Options& options, TelemetrySource& readings,
                                     std::function<int()> current_device, const Logger& log,
                                     ThermalClock clock)
    : readings_(readings),
      current_device_(std::move(current_device)),
      log_(log),
      clock_(std::move(clock)),
      mode_(options.thermal.mode),
      adaptive_(options.thermal.mode == "auto"),
      wait_(options.thermal.wait.value_or(kDefaultThermalWait)),
      cont_(options.thermal.cont.value_or(kDefaultThermalCont)),
      timeout_(options.thermal.timeout.value_or(kDefaultThermalTimeout)),
      pinned_device_(options.thermal.device) {}

void ThermalController::disable(const std::string& why) {
  enabled_ = false;
  if (warned_off_) return;
  warned_off_ = true;
  log_.warn("thermal control is off: " + why +
            ". Runs are not paused to let the GPU cool; set thermal_mode to 'off' to silence "
            "this warning.");
}

bool ThermalController::init() {
  if (mode_ == "off") return false;
  const int device = pinned_device_ ? *pinned_device_ : current_device_();
  const DeviceReading r = readings_.reading(device);
  if (r.state != DeviceReading::State::kRead) {
    const std::string why = r.state == DeviceReading::State::kPending ? "not read yet" : r.why;
    disable(pinned_device_ ? "cannot watch thermal_device " + std::to_string(device) + " (" + why +
                                 "); pass the CUDA ordinal of a GPU of this process"
                           : "cannot find the profiled GPU (CUDA device " + std::to_string(device) +
                                 ") through NVML (" + why + ")");
    return false;
  }
  device_ = device;
  if (!r.sample.headroom_c) {
    disable(readings_.describe(device) + " does not report its thermal headroom (" + r.why + ")");
    return false;
  }
  latest_ = r.sample;
  enabled_ = true;
  log_.debug("[thermal] watching " + readings_.describe(device) +
             (pinned_device_ ? " (thermal_device)" : "") + ": thermal headroom " +
             deg(*r.sample.headroom_c) + ", " + mode_ + " mode, pause at <= " + deg(wait_) +
             ", resume at >= " + deg(cont_) + ", timeout " + std::to_string(timeout_) + "s");
  return true;
}

bool ThermalController::switch_to(int device, const DeviceReading& reading) {
  switch (reading.state) {
    case DeviceReading::State::kPending:
      log_.debug("[thermal] the current CUDA device changed to " + std::to_string(device) +
                 ", not read yet: this run is not guarded");
      return false;
    case DeviceReading::State::kMissing:
      disable("the current CUDA device changed to " + std::to_string(device) +
              ", which cannot be found through NVML (" + reading.why + ")");
      return false;
    case DeviceReading::State::kRead:
      break;
  }
  device_ = device;
  log_.debug("[thermal] the current CUDA device changed: watching " + readings_.describe(device));
  return true;
}

std::optional<int> ThermalController::headroom_of(const DeviceReading& reading) {
  if (reading.state == DeviceReading::State::kRead && reading.sample.headroom_c) {
    latest_ = reading.sample;
    return reading.sample.headroom_c;
  }
  const std::string why = reading.why.empty() ? "not read" : reading.why;
  if (!warned_unreadable_) {
    log_.warn("thermal control could not read the thermal headroom of " +
              readings_.describe(device_) + " (" + why +
              "); runs go unguarded while it cannot be read.");
    warned_unreadable_ = true;
  } else {
    log_.debug("[thermal] thermal headroom unreadable (" + why + ")");
  }
  return std::nullopt;
}

void ThermalController::guard() {
  last_wait_ = 0;
  if (!enabled_) return;
  const int device = pinned_device_ ? *pinned_device_ : current_device_();
  const DeviceReading r = readings_.reading(device);
  if (device != device_ && !switch_to(device, r)) return;
  const auto headroom = headroom_of(r);
  if (!headroom) return;
  // Count the run about to execute (the adaptive rule counts runs from thermal_cont down to
  // thermal_wait).
  if (counting_) ++iterations_;
  if (*headroom <= wait_) {
    pause(*headroom);
    return;
  }
  if (*headroom >= cont_ && !counting_) counting_ = true;
}

std::string ThermalController::temperature_text() const {
  return latest_.temperature_c ? std::to_string(*latest_.temperature_c) : std::string("?");
}

void ThermalController::pause(int headroom) {
  log_.debug("[thermal] GPU hot: " + temperature_text() + "°C (thermal headroom: " + deg(headroom) + ")");
  if (adaptive_ && counting_ && iterations_ > 0) {
    const int before = cont_;
    if (iterations_ < kTargetMinIterations) {
      cont_ = std::min(cont_ + kAdjustmentStep, kMaxThermalCont);
    } else if (iterations_ > kTargetMaxIterations) {
      cont_ = std::max(cont_ - kAdjustmentStep, kMinThermalCont);
    }
    if (cont_ != before) {
      log_.debug("[thermal] adaptive mode: " + std::to_string(iterations_) +
                 " runs since the last pause, thermal_cont " + deg(before) + " -> " + deg(cont_));
    }
  }
  iterations_ = 0;
  counting_ = false;
  wait_for_cooling(headroom);
  counting_ = true;
}

void ThermalController::wait_for_cooling(int headroom) {
  const double began = clock_.now();
  double start = began;
  std::optional<int> h = headroom;
  while (h && *h < cont_) {
    if (clock_.now() - start > timeout_) {
      on_timeout(*h);
      start = clock_.now();
    }
    check_interrupt();  // a Ctrl-C of the caller's (kscope::set_interrupt_check)
    clock_.sleep(kPollSeconds);  // the sampler keeps reading meanwhile
    h = headroom_of(readings_.reading(device_));
  }
  last_wait_ = clock_.now() - began;
  total_wait_ += last_wait_;
  ++pauses_;
  log_.debug("[thermal] Waited " + seconds_text(last_wait_) + " → Cooled to " + temperature_text() +
             "°C (thermal headroom: " + (h ? deg(*h) : std::string("?")) + ")");
}

void ThermalController::on_timeout(int headroom) {
  if (adaptive_) {
    log_.debug("[thermal] adaptive mode: no cooling to " + deg(cont_) + " within " +
               std::to_string(timeout_) + "s, decreasing thermal_cont to " +
               deg(std::max(cont_ - kAdjustmentStep, kMinThermalCont)));
    cont_ = std::max(cont_ - kAdjustmentStep, kMinThermalCont);
    if (cont_ == kMinThermalCont && cont_ > headroom) {
      throw CoolingTimeoutError("Adaptive thermal control reached minimum thermal_cont=" +
                                deg(kMinThermalCont) + " but GPU thermal headroom is only " +
                                deg(headroom) + ". Cannot continue profiling.");
    }
    return;
  }
  throw CoolingTimeoutError("Timeout after " + std::to_string(timeout_) +
                            "s. Cannot reach thermal_cont=" + deg(cont_) +
                            " (current thermal headroom: " + deg(headroom) +
                            "). Try: increase thermal_wait, decrease thermal_cont, or increase "
                            "thermal_timeout.");
}

}  // namespace kscope::thermal
