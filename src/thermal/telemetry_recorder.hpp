#pragma once
// Reads the GPU just before and just after every measured run and keeps the readings
// (Results::telemetry, the journal). With several passes per run (counter replay) the first
// "before" and the last "after" are kept, so they bracket the whole run.

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "core/kernel_record.hpp"
#include "core/logger.hpp"
#include "kscope/results.hpp"
#include "thermal/gpu_monitor.hpp"

namespace kscope::thermal {

class TelemetryRecorder {
 public:
  /// Reads `monitor` for the CUDA device `current_device()` returns before each reading.
  TelemetryRecorder(GpuMonitor& monitor, std::function<int()> current_device, const Logger& log);

  /// Before a run (after the thermal guard, which paused `cooling_wait_s`). Warm-up runs are
  /// skipped.
  void before_run(const RunId& run, double cooling_wait_s);
  /// After the run, once the device is synchronised.
  void after_run(const RunId& run);

  /// Every run recorded so far.
  [[nodiscard]] const std::vector<RunTelemetry>& telemetry() const { return all_; }
  /// The runs recorded since the previous drain() (for the journal).
  [[nodiscard]] std::vector<RunTelemetry> drain();

 private:
  std::optional<TelemetrySample> read(int* device);
  [[nodiscard]] bool is_last(const RunId& run) const;

  GpuMonitor& monitor_;
  std::function<int()> current_device_;
  const Logger& log_;
  std::vector<RunTelemetry> all_;
  std::size_t drained_ = 0;
  bool warned_ = false;
};

}  // namespace kscope::thermal
