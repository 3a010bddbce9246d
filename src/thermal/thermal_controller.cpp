#include "thermal/thermal_controller.hpp"

#include <algorithm>
#include <cstdio>

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

ThermalController::ThermalController(const Options& options, GpuMonitor& monitor,
                                     std::function<int()> current_device, const Logger& log,
                                     ThermalClock clock)
    : monitor_(monitor),
      current_device_(std::move(current_device)),
      log_(log),
      clock_(std::move(clock)),
      mode_(options.thermal_mode),
      adaptive_(options.thermal_mode == "auto"),
      wait_(options.thermal_wait.value_or(kDefaultThermalWait)),
      cont_(options.thermal_cont.value_or(kDefaultThermalCont)),
      timeout_(options.thermal_timeout.value_or(kDefaultThermalTimeout)),
      pinned_device_(options.thermal_device) {}

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
  std::string why;
  if (!monitor_.select(device, &why)) {
    disable(pinned_device_ ? "cannot watch thermal_device " + std::to_string(device) + " (" + why +
                                 "); pass the CUDA ordinal of a GPU of this process"
                           : "cannot find the profiled GPU (CUDA device " + std::to_string(device) +
                                 ") through NVML (" + why + ")");
    return false;
  }
  device_ = device;
  const auto headroom = monitor_.headroom(&why);
  if (!headroom) {
    disable(monitor_.describe() + " does not report its thermal headroom (" + why + ")");
    return false;
  }
  enabled_ = true;
  log_.debug("[thermal] watching " + monitor_.describe() + (pinned_device_ ? " (thermal_device)" : "") +
             ": thermal headroom " + deg(*headroom) + ", " + mode_ + " mode, pause at <= " +
             deg(wait_) + ", resume at >= " + deg(cont_) + ", timeout " +
             std::to_string(timeout_) + "s");
  return true;
}

bool ThermalController::follow_current_device() {
  if (pinned_device_) return true;
  const int device = current_device_();
  if (device == device_) return true;
  std::string why;
  if (!monitor_.select(device, &why)) {
    disable("the current CUDA device changed to " + std::to_string(device) +
            ", which cannot be found through NVML (" + why + ")");
    return false;
  }
  device_ = device;
  log_.debug("[thermal] the current CUDA device changed: watching " + monitor_.describe());
  return true;
}

std::optional<int> ThermalController::read_headroom() {
  std::string why;
  const auto headroom = monitor_.headroom(&why);
  if (!headroom) {
    if (!warned_unreadable_) {
      log_.warn("thermal control could not read the thermal headroom of " + monitor_.describe() +
                " (" + why + "); runs go unguarded while it cannot be read.");
      warned_unreadable_ = true;
    } else {
      log_.debug("[thermal] thermal headroom unreadable (" + why + ")");
    }
  }
  return headroom;
}

void ThermalController::guard() {
  last_wait_ = 0;
  if (!enabled_ || !follow_current_device()) return;
  const auto headroom = read_headroom();
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

std::string ThermalController::temperature_text() {
  const auto t = monitor_.temperature();
  return t ? std::to_string(*t) : std::string("?");
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
    clock_.sleep(kPollSeconds);
    h = read_headroom();
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
