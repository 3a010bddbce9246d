#include "collect/cupti/checkpoint_estimate.hpp"

#include <fstream>
#include <sstream>

#include "core/number_format.hpp"
#include "cuda/device.hpp"

namespace kscope::cupti {
namespace {

std::string gigabytes(std::size_t bytes) { return format_significant(static_cast<double>(bytes) / 1e9, 3) + " GB"; }

// What a user can do instead, the end of every checkpoint warning and error.
constexpr const char* kAlternatives =
    "Use metric_replay 'application' (no save; the benchmark must not depend on what earlier "
    "executions left in memory), or hold less device memory during the sweep (free caches, e.g. "
    "torch.cuda.empty_cache(), or a smaller footprint).";

std::string footprint(const DeviceMemory& memory) {
  return gigabytes(memory.used) + " in use and " + gigabytes(memory.free) + " free";
}

// ", and the host has only X GB available: the save may fail" for a copy bound for host memory
// that is larger than MemAvailable.
std::string host_shortfall(const DeviceMemory& memory) {
  if (memory.host_available == 0 || memory.used <= memory.host_available || memory.used <= memory.free) {
    return "";
  }
  return "; the host has " + gigabytes(memory.host_available) +
         " of memory available for it, so the save may fail";
}

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
         footprint(memory) +
         (e.on_host ? ", the copy does not fit on the device and goes to host memory," : ",") +
         " one save is estimated at ~" + format_significant(e.save_seconds, 2) + " s, ~" +
         format_significant(sweep, 2) + " s for the sweep's " + std::to_string(measured_runs) +
         " measured run(s), restores not counted" + host_shortfall(memory) + ". " + kAlternatives;
}

std::string checkpoint_out_of_memory(const DeviceMemory& memory) {
  return "metric_replay 'checkpoint' could not save the device's memory: CUPTI found no room for "
         "the copy (CUPTI_ERROR_OUT_OF_MEMORY) with " + footprint(memory) + " on the device and " +
         (memory.host_available ? gigabytes(memory.host_available) : std::string("an unknown amount")) +
         " of host memory available. " + kAlternatives;
}

std::size_t host_available_memory() {
  std::ifstream in("/proc/meminfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("MemAvailable:", 0) != 0) continue;
    std::istringstream fields(line.substr(13));
    std::size_t kib = 0;
    return fields >> kib ? kib * 1024 : 0;
  }
  return 0;
}

DeviceMemory current_device_memory() {
  const cuda::MemoryInfo m = cuda::current_memory_info();
  return {m.total - m.free, m.free, host_available_memory()};
}

}  // namespace kscope::cupti
