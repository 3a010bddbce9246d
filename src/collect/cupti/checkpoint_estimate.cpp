#include "collect/cupti/checkpoint_estimate.hpp"

#include "core/number_format.hpp"

namespace kscope::cupti {
namespace {

std::string gigabytes(std::size_t bytes) { return format_significant(static_cast<double>(bytes) / 1e9, 3) + " GB"; }

}  // namespace

CheckpointEstimate estimate_checkpoint(const DeviceMemory& memory) {
  CheckpointEstimate e;
  e.on_host = memory.used > memory.free;
  e.save_seconds = static_cast<double>(memory.used) /
                   (e.on_host ? kHostSaveBytesPerSecond : kDeviceSaveBytesPerSecond);
  return e;
}

std::string checkpoint_warning(const DeviceMemory& memory, std::size_t measured_runs) {
  const CheckpointEstimate e = estimate_checkpoint(memory);
  if (e.save_seconds <= kWarnSaveSeconds) return "";
  const double sweep = e.save_seconds * static_cast<double>(measured_runs);
  return "metric_replay 'checkpoint' saves the device's memory before every measured run: with " +
         gigabytes(memory.used) + " in use and " + gigabytes(memory.free) + " free" +
         (e.on_host ? ", the copy does not fit on the device and goes to host memory," : ",") +
         " one save is estimated at ~" + format_significant(e.save_seconds, 2) + " s, ~" +
         format_significant(sweep, 2) + " s for the sweep's " + std::to_string(measured_runs) +
         " measured run(s), restores not counted. Use metric_replay 'application' (no save; the "
         "benchmark must not depend on what earlier executions left in memory), or hold less "
         "device memory during the sweep (free caches, e.g. torch.cuda.empty_cache(), or a "
         "smaller footprint).";
}

}  // namespace kscope::cupti
