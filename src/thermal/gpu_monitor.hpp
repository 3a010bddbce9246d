#pragma once
// What the telemetry sampler (telemetry_sampler.hpp) reads from the GPU, behind an interface so
// that it is tested with a fake (tests/cpp/thermal/fake_gpu_monitor.hpp). The real one reads NVML
// (nvml_gpu_monitor.hpp). Not thread-safe: the sampler uses it from one thread at a time.

#include <optional>
#include <string>

#include "kscope/results.hpp"

namespace kscope::thermal {

class GpuMonitor {
 public:
  virtual ~GpuMonitor() = default;
  /// Watches CUDA device `cuda_device` from now on. Returns false, with `why`, when that GPU
  /// cannot be found; the previous selection is then kept. Cheap when the device is unchanged.
  virtual bool select(int cuda_device, std::string* why) = 0;
  /// The selected GPU for messages, e.g. "CUDA device 0 (NVIDIA H200, 00000000:00:06.0)".
  [[nodiscard]] virtual std::string describe() const = 0;
  /// Thermal headroom (degC before the GPU slows down); nullopt, with `why`, when unreadable.
  virtual std::optional<int> headroom(std::string* why) = 0;
  /// Every telemetry reading at once (fields the GPU does not report stay nullopt).
  virtual TelemetrySample read() = 0;
};

}  // namespace kscope::thermal
