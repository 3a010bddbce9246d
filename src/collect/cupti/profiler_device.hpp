#pragma once
// The device side of CUPTI profiling that the range profiler needs before it can start: the
// process-wide profiler initialisation, the device support check, the chip name, the counter
// availability image, and the CUDA context (through the runtime's driver entry points: nothing
// of kscope links libcuda). No CUPTI types in this header: the context is a void*.

#include <cstdint>
#include <string>
#include <vector>

namespace kscope::cupti {

/// cuptiProfilerInitialize, once per process (thread-safe). Throws CuptiError.
void initialize_profiler();

/// Makes `device` current on this thread, creates its primary context if needed and returns it
/// (a CUcontext). Throws kscope::Error when the driver entry point is missing.
[[nodiscard]] void* primary_context(int device);

/// Makes `context` (a CUcontext) current on this thread for the object's life and restores the
/// one before (nothing when it is current already, or when the driver refuses). Does not throw.
class CurrentContext {
 public:
  explicit CurrentContext(void* context) noexcept;
  ~CurrentContext();
  CurrentContext(const CurrentContext&) = delete;
  CurrentContext& operator=(const CurrentContext&) = delete;

 private:
  bool pushed_ = false;
};

/// Throws NotSupportedError saying why (architecture, SLI, vGPU profiling disabled, confidential
/// computing, CMP, WSL) when the range profiler cannot profile `device`.
void check_device_supported(int device);

/// CUPTI's chip name of `device` ("GH100").
[[nodiscard]] std::string device_chip_name(int device);

/// Which counters the context's device exposes (feeds the host API), kept per context for the
/// process once known. Throws CuptiError; this is
/// where CUPTI_ERROR_INSUFFICIENT_PRIVILEGES usually surfaces.
[[nodiscard]] std::vector<std::uint8_t> counter_availability(void* context);

}  // namespace kscope::cupti
