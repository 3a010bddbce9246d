#include "collect/cupti/launch_metrics.hpp"

#include <algorithm>
#include <functional>
#include <utility>

#include "cuda/device_attributes.hpp"
#include "kscope/errors.hpp"

namespace kscope::cupti {
namespace {

constexpr const char* kDevicePrefix = "device__attribute_";
constexpr std::int64_t kRegisterAllocationUnit = 256;  // registers, allocated per warp
constexpr std::int64_t kSubPartitions = 4;             // register file split, every CUDA 13 GPU

using Attributes = std::map<std::string, double>;
using Compute = std::function<double(const KernelLaunch&, const Attributes&)>;

struct LaunchMetric {
  const char* unit;  // "" where ncu prints none
  Compute value;
};

std::int64_t product(const std::array<std::int64_t, 3>& d) { return d[0] * d[1] * d[2]; }

double attribute(const Attributes& a, const std::string& name) {
  auto it = a.find(name);
  if (it == a.end()) throw ToolError("device attribute '" + name + "' was not read");
  return it->second;
}

std::int64_t shared_per_block(const KernelLaunch& l, const Attributes& a) {
  return l.static_shared_bytes + l.dynamic_shared_bytes +
         static_cast<std::int64_t>(attribute(a, "reserved_shared_memory_per_block"));
}

// ncu's launch__ metrics that the activity record and the device attributes determine.
const std::map<std::string, LaunchMetric>& launch_table() {
  static const std::map<std::string, LaunchMetric> t = {
      {"launch__grid_dim_x", {"", [](const KernelLaunch& l, const Attributes&) { return double(l.grid[0]); }}},
      {"launch__grid_dim_y", {"", [](const KernelLaunch& l, const Attributes&) { return double(l.grid[1]); }}},
      {"launch__grid_dim_z", {"", [](const KernelLaunch& l, const Attributes&) { return double(l.grid[2]); }}},
      {"launch__grid_size", {"", [](const KernelLaunch& l, const Attributes&) { return double(product(l.grid)); }}},
      {"launch__block_dim_x", {"block", [](const KernelLaunch& l, const Attributes&) { return double(l.block[0]); }}},
      {"launch__block_dim_y", {"block", [](const KernelLaunch& l, const Attributes&) { return double(l.block[1]); }}},
      {"launch__block_dim_z", {"block", [](const KernelLaunch& l, const Attributes&) { return double(l.block[2]); }}},
      {"launch__block_size", {"", [](const KernelLaunch& l, const Attributes&) { return double(product(l.block)); }}},
      {"launch__thread_count",
       {"thread", [](const KernelLaunch& l, const Attributes&) { return double(product(l.grid) * product(l.block)); }}},
      {"launch__cluster_dim_x", {"", [](const KernelLaunch& l, const Attributes&) { return double(l.cluster[0]); }}},
      {"launch__cluster_dim_y", {"", [](const KernelLaunch& l, const Attributes&) { return double(l.cluster[1]); }}},
      {"launch__cluster_dim_z", {"", [](const KernelLaunch& l, const Attributes&) { return double(l.cluster[2]); }}},
      {"launch__cluster_size", {"", [](const KernelLaunch& l, const Attributes&) { return double(product(l.cluster)); }}},
      {"launch__registers_per_thread",
       {"register/thread", [](const KernelLaunch& l, const Attributes&) { return double(l.registers_per_thread); }}},
      {"launch__shared_mem_per_block_static",
       {"byte/block", [](const KernelLaunch& l, const Attributes&) { return double(l.static_shared_bytes); }}},
      {"launch__shared_mem_per_block_dynamic",
       {"byte/block", [](const KernelLaunch& l, const Attributes&) { return double(l.dynamic_shared_bytes); }}},
      {"launch__shared_mem_per_block_driver",
       {"byte/block",
        [](const KernelLaunch&, const Attributes& a) { return attribute(a, "reserved_shared_memory_per_block"); }}},
      {"launch__shared_mem_per_block",
       {"byte/block", [](const KernelLaunch& l, const Attributes& a) { return double(shared_per_block(l, a)); }}},
      {"launch__shared_mem_config_size",
       {"byte", [](const KernelLaunch& l, const Attributes&) { return double(l.shared_config_bytes); }}},
      {"launch__occupancy_limit_blocks",
       {"block", [](const KernelLaunch& l, const Attributes& a) { return double(occupancy_limits(l, a).blocks); }}},
      {"launch__occupancy_limit_warps",
       {"block", [](const KernelLaunch& l, const Attributes& a) { return double(occupancy_limits(l, a).warps); }}},
      {"launch__occupancy_limit_registers",
       {"block", [](const KernelLaunch& l, const Attributes& a) { return double(occupancy_limits(l, a).registers); }}},
      {"launch__occupancy_limit_shared_mem",
       {"block", [](const KernelLaunch& l, const Attributes& a) { return double(occupancy_limits(l, a).shared_mem); }}},
      {"launch__waves_per_multiprocessor",
       {"",
        [](const KernelLaunch& l, const Attributes& a) {
          const double per_wave =
              double(occupancy_limits(l, a).active_blocks()) * attribute(a, "multiprocessor_count");
          return per_wave > 0 ? double(product(l.grid)) / per_wave : 0.0;
        }}},
  };
  return t;
}

// launch__ metrics that are properties of the device.
const std::map<std::string, std::pair<const char*, const char*>>& device_launch_table() {
  static const std::map<std::string, std::pair<const char*, const char*>> t = {
      {"launch__sm_count", {"SM", "multiprocessor_count"}},
  };
  return t;
}

bool is_device_attribute(const std::string& name) {
  const std::string prefix = kDevicePrefix;
  if (name.compare(0, prefix.size(), prefix) != 0) return false;
  const auto& names = cuda::device_attribute_names();
  return std::find(names.begin(), names.end(), name.substr(prefix.size())) != names.end();
}

std::optional<std::string> unit(const char* text) {
  return *text ? std::optional<std::string>(text) : std::nullopt;
}

}  // namespace

std::optional<LaunchMetricKind> launch_metric_kind(const std::string& name) {
  if (launch_table().count(name)) return LaunchMetricKind::kLaunch;
  if (device_launch_table().count(name) || is_device_attribute(name)) return LaunchMetricKind::kDevice;
  return std::nullopt;
}

std::vector<std::string> served_launch_metrics() {
  std::vector<std::string> out;
  for (const auto& [name, metric] : launch_table()) out.push_back(name);
  for (const auto& [name, metric] : device_launch_table()) out.push_back(name);
  std::sort(out.begin(), out.end());
  return out;
}

std::int64_t OccupancyLimits::active_blocks() const {
  return std::min({blocks, warps, registers, shared_mem});
}

OccupancyLimits occupancy_limits(const KernelLaunch& launch, const Attributes& a) {
  // The CUDA occupancy calculator's rules (cuda_occupancy.h): warps are allocated whole,
  // registers per warp in units of 256 within each of the SM's four register-file partitions,
  // shared memory per block including what the driver reserves.
  OccupancyLimits limits;
  const auto warp = static_cast<std::int64_t>(attribute(a, "warp_size"));
  const std::int64_t warps_per_block = (product(launch.block) + warp - 1) / warp;
  limits.blocks = static_cast<std::int64_t>(attribute(a, "max_blocks_per_multiprocessor"));
  limits.warps = warps_per_block > 0
                     ? static_cast<std::int64_t>(attribute(a, "max_warps_per_multiprocessor")) / warps_per_block
                     : limits.blocks;
  if (launch.registers_per_thread > 0 && warps_per_block > 0) {
    const std::int64_t per_warp = (launch.registers_per_thread * warp + kRegisterAllocationUnit - 1) /
                                  kRegisterAllocationUnit * kRegisterAllocationUnit;
    const auto per_partition =
        static_cast<std::int64_t>(attribute(a, "max_registers_per_multiprocessor")) / kSubPartitions;
    const std::int64_t warps = per_partition / per_warp * kSubPartitions;
    limits.registers = warps / warps_per_block;
  } else {
    limits.registers = limits.blocks;
  }
  const std::int64_t shared = shared_per_block(launch, a);
  limits.shared_mem = shared > 0 ? launch.shared_config_bytes / shared : limits.blocks;
  return limits;
}

Measurement launch_measurement(const std::string& name, const KernelLaunch* launch,
                               const Attributes& attributes) {
  if (auto it = launch_table().find(name); it != launch_table().end()) {
    if (!launch) throw ToolError("metric '" + name + "' needs the kernel's launch configuration");
    return {name, it->second.value(*launch, attributes), unit(it->second.unit)};
  }
  if (auto it = device_launch_table().find(name); it != device_launch_table().end()) {
    return {name, attribute(attributes, it->second.second), unit(it->second.first)};
  }
  if (is_device_attribute(name)) {
    return {name, attribute(attributes, name.substr(std::string(kDevicePrefix).size())), std::nullopt};
  }
  throw ToolError("metric '" + name + "' is not a launch or device metric kscope serves");
}

}  // namespace kscope::cupti
