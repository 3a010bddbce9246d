#include "cuda/device_attributes.hpp"

#include <cuda_runtime_api.h>

#include <utility>

#include "kscope/errors.hpp"

namespace kscope::cuda {
namespace {

// ncu's name -> the runtime's attribute; values as cudaDeviceGetAttribute returns them, which
// are ncu's (clock rates in kHz, sizes in bytes): checked against ncu's report of the H200 by
// tests/cpp/collect/cupti/launch_metrics_test.cpp (the names) and compared with ncu on the GPU by
// tests/python/test_gpu_launch_metrics.py (the values).
const std::vector<std::pair<std::string, cudaDeviceAttr>>& table() {
  static const std::vector<std::pair<std::string, cudaDeviceAttr>> t = {
      {"async_engine_count", cudaDevAttrAsyncEngineCount},
      {"can_map_host_memory", cudaDevAttrCanMapHostMemory},
      {"clock_rate", cudaDevAttrClockRate},
      {"cluster_launch", cudaDevAttrClusterLaunch},
      {"compute_capability_major", cudaDevAttrComputeCapabilityMajor},
      {"compute_capability_minor", cudaDevAttrComputeCapabilityMinor},
      {"compute_mode", cudaDevAttrComputeMode},
      {"compute_preemption_supported", cudaDevAttrComputePreemptionSupported},
      {"concurrent_kernels", cudaDevAttrConcurrentKernels},
      {"concurrent_managed_access", cudaDevAttrConcurrentManagedAccess},
      {"cooperative_launch", cudaDevAttrCooperativeLaunch},
      {"direct_managed_mem_access_from_host", cudaDevAttrDirectManagedMemAccessFromHost},
      {"ecc_enabled", cudaDevAttrEccEnabled},
      {"global_l1_cache_supported", cudaDevAttrGlobalL1CacheSupported},
      {"global_memory_bus_width", cudaDevAttrGlobalMemoryBusWidth},
      {"host_native_atomic_supported", cudaDevAttrHostNativeAtomicSupported},
      {"integrated", cudaDevAttrIntegrated},
      {"kernel_exec_timeout", cudaDevAttrKernelExecTimeout},
      {"l2_cache_size", cudaDevAttrL2CacheSize},
      {"local_l1_cache_supported", cudaDevAttrLocalL1CacheSupported},
      {"managed_memory", cudaDevAttrManagedMemory},
      {"max_access_policy_window_size", cudaDevAttrMaxAccessPolicyWindowSize},
      {"max_block_dim_x", cudaDevAttrMaxBlockDimX},
      {"max_block_dim_y", cudaDevAttrMaxBlockDimY},
      {"max_block_dim_z", cudaDevAttrMaxBlockDimZ},
      {"max_blocks_per_multiprocessor", cudaDevAttrMaxBlocksPerMultiprocessor},
      {"max_grid_dim_x", cudaDevAttrMaxGridDimX},
      {"max_grid_dim_y", cudaDevAttrMaxGridDimY},
      {"max_grid_dim_z", cudaDevAttrMaxGridDimZ},
      {"max_persisting_l2_cache_size", cudaDevAttrMaxPersistingL2CacheSize},
      {"max_pitch", cudaDevAttrMaxPitch},
      {"max_registers_per_block", cudaDevAttrMaxRegistersPerBlock},
      {"max_registers_per_multiprocessor", cudaDevAttrMaxRegistersPerMultiprocessor},
      {"max_shared_memory_per_block", cudaDevAttrMaxSharedMemoryPerBlock},
      {"max_shared_memory_per_block_optin", cudaDevAttrMaxSharedMemoryPerBlockOptin},
      {"max_shared_memory_per_multiprocessor", cudaDevAttrMaxSharedMemoryPerMultiprocessor},
      {"max_threads_per_block", cudaDevAttrMaxThreadsPerBlock},
      {"max_threads_per_multiprocessor", cudaDevAttrMaxThreadsPerMultiProcessor},
      {"memory_clock_rate", cudaDevAttrMemoryClockRate},
      {"memory_pools_supported", cudaDevAttrMemoryPoolsSupported},
      {"multi_gpu_board", cudaDevAttrIsMultiGpuBoard},
      {"multi_gpu_board_group_id", cudaDevAttrMultiGpuBoardGroupID},
      {"multiprocessor_count", cudaDevAttrMultiProcessorCount},
      {"pageable_memory_access", cudaDevAttrPageableMemoryAccess},
      {"reserved_shared_memory_per_block", cudaDevAttrReservedSharedMemoryPerBlock},
      {"single_to_double_precision_perf_ratio", cudaDevAttrSingleToDoublePrecisionPerfRatio},
      {"stream_priorities_supported", cudaDevAttrStreamPrioritiesSupported},
      {"surface_alignment", cudaDevAttrSurfaceAlignment},
      {"texture_alignment", cudaDevAttrTextureAlignment},
      {"texture_pitch_alignment", cudaDevAttrTexturePitchAlignment},
      {"total_constant_memory", cudaDevAttrTotalConstantMemory},
      {"unified_addressing", cudaDevAttrUnifiedAddressing},
      {"warp_size", cudaDevAttrWarpSize},
  };
  return t;
}

// Attributes ncu derives from others, or that the runtime gives as properties.
constexpr const char* kMaxWarpsPerMultiprocessor = "max_warps_per_multiprocessor";
constexpr const char* kTotalMemory = "total_memory";

}  // namespace

const std::vector<std::string>& device_attribute_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& [name, attribute] : table()) out.push_back(name);
    out.emplace_back(kMaxWarpsPerMultiprocessor);
    out.emplace_back(kTotalMemory);
    return out;
  }();
  return names;
}

std::map<std::string, double> read_device_attributes(int device) {
  std::map<std::string, double> values;
  for (const auto& [name, attribute] : table()) {
    int value = 0;
    const cudaError_t status = cudaDeviceGetAttribute(&value, attribute, device);
    if (status != cudaSuccess) {
      throw ToolError("cudaDeviceGetAttribute(" + name + ") failed on device " +
                      std::to_string(device) + ": " + cudaGetErrorString(status));
    }
    values[name] = value;
  }
  values[kMaxWarpsPerMultiprocessor] =
      values.at("max_threads_per_multiprocessor") / values.at("warp_size");
  cudaDeviceProp prop{};
  const cudaError_t status = cudaGetDeviceProperties(&prop, device);
  if (status != cudaSuccess) {
    throw ToolError("cudaGetDeviceProperties failed on device " + std::to_string(device) + ": " +
                    cudaGetErrorString(status));
  }
  values[kTotalMemory] = static_cast<double>(prop.totalGlobalMem);
  return values;
}

}  // namespace kscope::cuda
