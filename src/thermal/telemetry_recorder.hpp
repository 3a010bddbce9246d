#pragma once
// Records the GPU's state just before and just after every measured run (Results::telemetry, the
// journal): the telemetry sampler's latest reading of the run's device, stamped with its age at
// that moment (TelemetrySample::age_ms). Never calls NVML. With several passes per run (counter
// replay) the first "before" and the last "after" are kept, so they bracket the whole run.

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "core/kernel_record.hpp"
#include "core/logger.hpp"
#include "kscope/results.hpp"
#include "thermal/telemetry_source.hpp"

namespace kscope::thermal {

class TelemetryRecorder {
 public:
  /// Records `readings` of the CUDA device `current_device()` returns before each run; `now`
  /// is the clock the readings are stamped with (seconds), for their age.
  TelemetryRecorder(TelemetrySource& readings, std::function<int()> current_device,
                    const Logger& log, std::function<double()> now);

  /// Before a run (after the thermal guard, which paused `cooling_wait_s`). Warm-up runs are
  /// skipped.
  void before_run(const RunId& run, double cooling_wait_s);
  /// After the run, once the device is synchronised: the same device as before the run.
  void after_run(const RunId& run);

  /// Every run recorded so far.
  [[nodiscard]] const std::vector<RunTelemetry>& telemetry() const { return all_; }
  /// The runs recorded since the previous drain() (for the journal).
  [[nodiscard]] std::vector<RunTelemetry> drain();

 private:
  std::optional<TelemetrySample> latest(int device);
  [[nodiscard]] bool is_last(const RunId& run) const;

  TelemetrySource& readings_;
  std::function<int()> current_device_;
  const Logger& log_;
  std::function<double()> now_;
  std::vector<RunTelemetry> all_;
  std::size_t drained_ = 0;
  bool warned_ = false;
};

}  // namespace kscope::thermal
