#pragma once
// Thermal control ("thermovision" in nsight-python, whose behaviour and messages it follows):
// before every run, read the GPU's thermal headroom; at or below thermal_wait, pause until it is
// back to thermal_cont. In "auto" mode thermal_cont adapts to how fast the GPU heats up: fewer
// than 5 runs from one pause to the next raises it by 3 degC (cool more, up to 50), more than
// 50 lowers it by 3 (down to 12); a pause longer than thermal_timeout lowers it too, and fails
// only once it is at 12. In "manual" mode thresholds never change and a timeout fails at once.
// The headroom comes from the telemetry sampler's latest reading (telemetry_source.hpp): the
// guard itself never calls NVML, and while it pauses the sampler keeps the reading fresh.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

#include "core/logger.hpp"
#include "kscope/options.hpp"
#include "kscope/results.hpp"
#include "thermal/telemetry_source.hpp"
#include "thermal/thermal_clock.hpp"

namespace kscope::thermal {

using kscope::kDefaultThermalCont;  // degC of headroom that ends a pause (kscope/options.hpp)
using kscope::kDefaultThermalWait;  // degC of headroom that triggers one
inline constexpr int kDefaultThermalTimeout = 180;  ///< s, longest pause before adapting/failing
inline constexpr int kMinThermalCont = 12;
inline constexpr int kMaxThermalCont = 50;
inline constexpr int kTargetMinIterations = 5;   ///< fewer runs between pauses: cool more
inline constexpr int kTargetMaxIterations = 50;  ///< more runs between pauses: cool less
inline constexpr int kAdjustmentStep = 3;        ///< degC per adaptation
inline constexpr double kPollSeconds = 0.5;      ///< headroom polling interval while paused

class ThermalController {
 public:
  /// Reads thermal_mode/wait/cont/timeout/device from `options`. `current_device` returns the
  /// CUDA device current on this thread (followed before every run unless thermal_device pins
  /// one). Nothing is read until init().
  ThermalController(const Options& options, TelemetrySource& readings,
                    std::function<int()> current_device, const Logger& log,
                    ThermalClock clock = ThermalClock::system());

  /// Checks that the watched GPU has been read and reports its headroom (the caller has the
  /// first reading taken before). Returns whether thermal control is on: false for thermal_mode
  /// "off" (silently) or, after one warning saying why, when the GPU cannot be found or does
  /// not report its headroom.
  bool init();

  /// Before a run: pauses while the GPU is too hot, polling the latest reading every
  /// kPollSeconds. Throws kscope::CoolingTimeoutError when it does not cool down (see the class
  /// comment). Right after the current device changed to one not read yet, the run goes
  /// unguarded (the sampler reads it within one period).
  void guard();

  /// Turns thermal control off for the rest of the session with one warning naming `why`.
  void disable(const std::string& why);

  [[nodiscard]] bool enabled() const { return enabled_; }
  [[nodiscard]] bool adaptive() const { return adaptive_; }
  [[nodiscard]] int thermal_wait() const { return wait_; }
  [[nodiscard]] int thermal_cont() const { return cont_; }
  [[nodiscard]] int thermal_timeout() const { return timeout_; }
  [[nodiscard]] int iterations_since_cont() const { return iterations_; }
  [[nodiscard]] bool counting() const { return counting_; }
  /// CUDA ordinal being watched (-1 before init).
  [[nodiscard]] int device() const { return device_; }
  /// Seconds paused by the latest guard() (0 when it did not pause).
  [[nodiscard]] double last_wait_seconds() const { return last_wait_; }
  /// Pauses so far and their total length in seconds.
  [[nodiscard]] std::size_t pauses() const { return pauses_; }
  [[nodiscard]] double total_wait_seconds() const { return total_wait_; }

 private:
  bool switch_to(int device, const DeviceReading& reading);
  std::optional<int> headroom_of(const DeviceReading& reading);
  void pause(int headroom);
  void wait_for_cooling(int headroom);
  void on_timeout(int headroom);
  [[nodiscard]] std::string temperature_text() const;

  TelemetrySource& readings_;
  std::function<int()> current_device_;
  const Logger& log_;
  ThermalClock clock_;
  std::string mode_;
  bool adaptive_;
  int wait_;
  int cont_;
  int timeout_;
  std::optional<int> pinned_device_;
  bool enabled_ = false;
  int device_ = -1;
  TelemetrySample latest_;  ///< the reading behind the latest headroom (for messages)
  int iterations_ = 0;
  bool counting_ = false;
  bool warned_off_ = false;
  bool warned_unreadable_ = false;
  double last_wait_ = 0;
  double total_wait_ = 0;
  std::size_t pauses_ = 0;
};

}  // namespace kscope::thermal
