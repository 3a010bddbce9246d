#pragma once
// metric_replay "checkpoint" with a large footprint: how long the save of device memory before a
// run's first pass will take, and the warning kscope prints before the first pass when that is
// more than a few seconds. Plain arithmetic over the device's memory figures: unit-tested
// without a GPU.
//
// Rates: a save copies every allocation of the context. On an H200 (CUDA 13.0,
// bench/probes/checkpoint_probe.cu) it copied 16 GiB within device memory in 11.9 ms; when the
// copy cannot fit beside the original (110 GB held of 141 GB, issue 35) CUPTI keeps it in host
// memory, and a run of an 8-metric set took 60.6 s (181.9 s for 3 runs) against 0.9 s at 60 GB.

#include <cstddef>
#include <string>

namespace kscope::cupti {

/// What the device holds when the first save comes (cudaMemGetInfo), and what the host has left.
struct DeviceMemory {
  std::size_t used = 0;  ///< total - free: this process's allocations, its context, other processes
  std::size_t free = 0;
  std::size_t host_available = 0;  ///< the host's MemAvailable, bytes (0: unknown)
};

/// Bytes per second of one save within device memory (16 GiB in 11.9 ms on an H200).
inline constexpr double kDeviceSaveBytesPerSecond = 16.0 * (1ull << 30) / 0.0119;
/// Bytes per second of one save that goes to host memory: at most 110 GB in 60.6 s, the H200's
/// slowest run (each run saves once and restores once per later pass). A pessimistic figure: an
/// H100 host saved 62.9 GB in 14.3 s (docs/tools/cupti-metrics.md, "A large footprint").
inline constexpr double kHostSaveBytesPerSecond = 110e9 / 60.6;
/// An estimate above this many seconds per save is warned about.
inline constexpr double kWarnSaveSeconds = 3.0;

struct CheckpointEstimate {
  double save_seconds = 0;  ///< one save (before every measured run's first pass)
  bool on_host = false;     ///< the copy does not fit in the free device memory
};

/// The estimate for `memory`: on the device when the used bytes fit in the free ones.
[[nodiscard]] CheckpointEstimate estimate_checkpoint(const DeviceMemory& memory);

/// The warning before the first pass, or "" when one save is estimated at kWarnSaveSeconds or
/// less; `measured_runs`: saves the sweep will make (configs x runs). A copy bound for host memory
/// that is larger than the host's MemAvailable is said to risk failing: not an error, since a
/// virtual machine's memory may grow as it is used (MemAvailable understates it there).
[[nodiscard]] std::string checkpoint_warning(const DeviceMemory& memory, std::size_t measured_runs);

/// The error for a save that CUPTI refused for memory (CUPTI_ERROR_OUT_OF_MEMORY).
[[nodiscard]] std::string checkpoint_out_of_memory(const DeviceMemory& memory);

/// The host's MemAvailable from /proc/meminfo, bytes (0 when it cannot be read).
[[nodiscard]] std::size_t host_available_memory();

/// The current device's memory (cudaMemGetInfo) and the host's MemAvailable, now.
[[nodiscard]] DeviceMemory current_device_memory();

}  // namespace kscope::cupti
