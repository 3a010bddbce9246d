#pragma once
// The `launch__*` and `device__attribute_*` metrics Nsight Compute reports, served by the cupti
// tool under ncu's names, units and values: launch metrics from the kernel's activity record
// (grid, block, registers, shared memory, cluster) and the device's attributes, with the
// occupancy limits computed as the CUDA occupancy calculator does; device attributes from the
// CUDA runtime (cuda/device_attributes.hpp). Pure: the callers hand in what CUPTI and the runtime
// reported.

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/kernel_record.hpp"

namespace kscope::cupti {

/// What a metric needs to be computed.
enum class LaunchMetricKind {
  kDevice,  ///< the device's attributes only (launch__sm_count, device__attribute_*)
  kLaunch,  ///< the kernel's launch configuration as well
};

/// The kind of a served `launch__` / `device__attribute_` metric; nullopt for any other name
/// (including the launch and device metrics kscope does not serve).
[[nodiscard]] std::optional<LaunchMetricKind> launch_metric_kind(const std::string& name);

/// The `launch__` metrics kscope serves (for messages and docs).
[[nodiscard]] std::vector<std::string> served_launch_metrics();

/// One kernel's launch as its activity record describes it.
struct KernelLaunch {
  std::array<std::int64_t, 3> grid{1, 1, 1};
  std::array<std::int64_t, 3> block{1, 1, 1};
  std::array<std::int64_t, 3> cluster{0, 0, 0};  ///< 0: no cluster
  std::int64_t registers_per_thread = 0;
  std::int64_t static_shared_bytes = 0;
  std::int64_t dynamic_shared_bytes = 0;
  std::int64_t shared_config_bytes = 0;  ///< the shared-memory carveout the driver set
  int device = 0;
};

/// The occupancy limits of one launch, in blocks per SM (launch__occupancy_limit_*).
struct OccupancyLimits {
  std::int64_t blocks = 0;
  std::int64_t warps = 0;
  std::int64_t registers = 0;
  std::int64_t shared_mem = 0;
  [[nodiscard]] std::int64_t active_blocks() const;  ///< the smallest limit
};

/// The occupancy limits of `launch` on a device with `attributes` (device__attribute_ names
/// without the prefix: max_blocks_per_multiprocessor, max_warps_per_multiprocessor, warp_size,
/// max_registers_per_multiprocessor, reserved_shared_memory_per_block).
[[nodiscard]] OccupancyLimits occupancy_limits(const KernelLaunch& launch,
                                               const std::map<std::string, double>& attributes);

/// The value of metric `name` (launch_metric_kind(name) must be set); `launch` may be null for
/// kDevice metrics. Units are ncu's (nullopt where ncu prints none).
[[nodiscard]] Measurement launch_measurement(const std::string& name, const KernelLaunch* launch,
                                             const std::map<std::string, double>& attributes);

}  // namespace kscope::cupti
