#pragma once
// What thermal control and the telemetry recorder read before and after each run: the latest
// reading of a GPU, kept up to date by the background sampler (telemetry_sampler.hpp) so that
// the run hooks never wait for NVML. An interface so that their logic is tested with scripted
// readings (tests/cpp/thermal/fake_gpu_monitor.hpp).

#include <cstdint>
#include <string>

#include "kscope/results.hpp"

namespace kscope::thermal {

/// The latest reading of one CUDA device.
struct DeviceReading {
  enum class State {
    kPending,  ///< asked for, not read yet (a device the hooks just switched to)
    kMissing,  ///< the device cannot be found through NVML; `why` says why
    kRead,     ///< `sample` holds the latest reading
  };
  State state = State::kPending;
  /// kMissing: why the device cannot be read; kRead without `sample.headroom_c`: why the
  /// thermal headroom cannot be read.
  std::string why;
  TelemetrySample sample;  ///< kRead: the reading (its age_ms unset)
  double taken_at = 0;     ///< kRead: when the reading was complete, seconds on the sampler's clock
  std::uint64_t count = 0;  ///< readings of this device so far
};

class TelemetrySource {
 public:
  virtual ~TelemetrySource() = default;
  /// The latest reading of `device`; cheap (a copy), never waits for the GPU. The first call for
  /// a device asks for it to be read from then on: until it has been, the answer is kPending.
  virtual DeviceReading reading(int device) = 0;
  /// `device` for messages, e.g. "CUDA device 0 (NVIDIA H200, 00000000:00:06.0)".
  [[nodiscard]] virtual std::string describe(int device) const = 0;
};

}  // namespace kscope::thermal
