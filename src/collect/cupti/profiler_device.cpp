#include "collect/cupti/profiler_device.hpp"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include <map>
#include <mutex>

#include "collect/cupti/cupti_check.hpp"
#include "collect/cupti/cupti_params.hpp"
#include "cuda/cuda_check.hpp"
#include "kscope/errors.hpp"

namespace kscope::cupti {
namespace {

// Looks a driver function up through the runtime, so that no kscope binary needs libcuda at
// load time (see docs: a binary linked to the driver stub cannot start without a driver).
template <class Fn>
Fn driver_entry_point(const char* symbol) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult status{};
  const cudaError_t err =
      cudaGetDriverEntryPointByVersion(symbol, &fn, 12000, cudaEnableDefault, &status);
  if (err != cudaSuccess || status != cudaDriverEntryPointSuccess || fn == nullptr) {
    throw Error(std::string("[kscope] the CUDA driver has no entry point '") + symbol +
                "' (cudaGetDriverEntryPointByVersion returned " + cudaGetErrorName(err) +
                "); update the NVIDIA driver.");
  }
  return reinterpret_cast<Fn>(fn);
}

const char* level_text(CUpti_Profiler_Support_Level level) {
  switch (level) {
    case CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED: return "unsupported";
    case CUPTI_PROFILER_CONFIGURATION_DISABLED: return "disabled by the system";
    case CUPTI_PROFILER_CONFIGURATION_SUPPORTED: return "supported";
    default: return "unknown";
  }
}

}  // namespace

void initialize_profiler() {
  static std::once_flag once;
  std::call_once(once, [] {
    auto p = KSCOPE_CUPTI_PARAMS(CUpti_Profiler_Initialize_Params);
    KSCOPE_CUPTI_CHECK(cuptiProfilerInitialize(&p));
  });
}

void* primary_context(int device) {
  KSCOPE_CUDA_CHECK(cudaSetDevice(device));
  KSCOPE_CUDA_CHECK(cudaFree(nullptr));  // creates the primary context and makes it current
  using GetCurrent = CUresult (*)(CUcontext*);
  static const auto get_current = driver_entry_point<GetCurrent>("cuCtxGetCurrent");
  CUcontext ctx = nullptr;
  const CUresult st = get_current(&ctx);
  if (st != CUDA_SUCCESS || ctx == nullptr) {
    throw Error("[kscope] cuCtxGetCurrent failed with CUresult " + std::to_string(static_cast<int>(st)) +
                " after the primary context of device " + std::to_string(device) + " was created");
  }
  return ctx;
}

CurrentContext::CurrentContext(void* context) noexcept {
  using GetCurrent = CUresult (*)(CUcontext*);
  using Push = CUresult (*)(CUcontext);
  try {
    static const auto get_current = driver_entry_point<GetCurrent>("cuCtxGetCurrent");
    static const auto push = driver_entry_point<Push>("cuCtxPushCurrent");
    CUcontext now = nullptr;
    if (get_current(&now) == CUDA_SUCCESS && now == static_cast<CUcontext>(context)) return;
    pushed_ = push(static_cast<CUcontext>(context)) == CUDA_SUCCESS;
  } catch (...) {
    // No entry point: CUPTI's call runs with the thread's context as it is.
  }
}

CurrentContext::~CurrentContext() {
  if (!pushed_) return;
  using Pop = CUresult (*)(CUcontext*);
  try {
    static const auto pop = driver_entry_point<Pop>("cuCtxPopCurrent");
    CUcontext popped = nullptr;
    (void)pop(&popped);
  } catch (...) {
  }
}

void check_device_supported(int device) {
  using DeviceGet = CUresult (*)(CUdevice*, int);
  static const auto device_get = driver_entry_point<DeviceGet>("cuDeviceGet");
  CUdevice dev = 0;
  if (device_get(&dev, device) != CUDA_SUCCESS) dev = device;
  auto p = KSCOPE_CUPTI_PARAMS(CUpti_Profiler_DeviceSupported_Params);
  p.cuDevice = dev;
  p.api = CUPTI_PROFILER_RANGE_PROFILING;
  KSCOPE_CUPTI_CHECK(cuptiProfilerDeviceSupported(&p));
  if (p.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED) return;
  std::string why;
  auto add = [&](const char* what, CUpti_Profiler_Support_Level level) {
    if (level != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
      why += std::string(why.empty() ? "" : ", ") + what + " " + level_text(level);
    }
  };
  add("architecture (needs compute capability >= 7.0):", p.architecture);
  add("SLI:", p.sli);
  add("vGPU profiling:", p.vGpu);
  add("confidential computing:", p.confidentialCompute);
  add("CMP:", p.cmp);
  add("WSL:", p.wsl);
  throw NotSupportedError("The CUPTI range profiler cannot collect hardware counters on device " +
                          std::to_string(device) + " (" + why +
                          "). Only 'gpu__time_duration.sum' (Activity API timing) works there with the "
                          "cupti tool.");
}

std::string device_chip_name(int device) {
  initialize_profiler();
  auto p = KSCOPE_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
  p.deviceIndex = static_cast<std::size_t>(device);
  KSCOPE_CUPTI_CHECK(cuptiDeviceGetChipName(&p));
  return p.pChipName ? std::string(p.pChipName) : std::string();
}

std::vector<std::uint8_t> counter_availability(void* context) {
  // Kept per context for the process: the query costs 80-140 ms on the H200 (580 ms the first
  // time after the driver loaded) and a later profile() call asks again for the same context. A
  // counter taken since by another profiler makes the next Start fail, not read wrong.
  static std::mutex mu;
  static std::map<void*, std::vector<std::uint8_t>> cache;
  {
    std::lock_guard<std::mutex> lock(mu);
    const auto it = cache.find(context);
    if (it != cache.end()) return it->second;
  }
  auto p = KSCOPE_CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
  p.ctx = static_cast<CUcontext>(context);
  KSCOPE_CUPTI_CHECK(cuptiProfilerGetCounterAvailability(&p));
  std::vector<std::uint8_t> image(p.counterAvailabilityImageSize);
  p.pCounterAvailabilityImage = image.data();
  KSCOPE_CUPTI_CHECK(cuptiProfilerGetCounterAvailability(&p));
  image.resize(p.counterAvailabilityImageSize);
  std::lock_guard<std::mutex> lock(mu);
  cache[context] = image;
  return image;
}

}  // namespace kscope::cupti
