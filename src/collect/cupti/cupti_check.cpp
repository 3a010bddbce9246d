#include "collect/cupti/cupti_check.hpp"

#include "core/profiler_processes.hpp"

namespace kscope::cupti {

std::string error_message(CUptiResult code, const char* call) {
  const char* text = nullptr;
  if (cuptiGetResultString(code, &text) != CUPTI_SUCCESS || text == nullptr) text = "unknown error";
  std::string msg = std::string("[kscope] CUPTI call ") + call + " failed with code " +
                    std::to_string(static_cast<int>(code)) + " (" + text + ")";
  switch (code) {
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
      msg += ": another CUPTI client already holds this process (Nsight Systems, Nsight Compute, "
             "compute-sanitizer, cuda-gdb, or torch.profiler, which keeps its subscription after "
             "its context exits). Run kscope's cupti tool in a process that does not use another "
             "profiler, or use tool 'ncu'.";
      break;
    case CUPTI_ERROR_HARDWARE_BUSY: {
      const std::string others = running_profilers();
      msg += ": another process holds this GPU's performance counters (" +
             (others.empty() ? std::string("no ncu, nsys, compute-sanitizer or DCGM process of this "
                                           "host was found: another container, or a kscope "
                                           "process with KSCOPE_KEEP_COUNTERS_S")
                             : "running: " + others) +
             "). Wait for it to finish, or stop it, and run again; kscope sweeps that read counters "
             "on one GPU wait for each other (docs/faults.md).";
      break;
    }
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
      msg += ": the driver restricts GPU performance counters to administrators. Run as root or "
             "load the driver with NVreg_RestrictProfilingToAdminUsers=0 "
             "(https://developer.nvidia.com/ERR_NVGPUCTRPERM).";
      break;
    case CUPTI_ERROR_NOT_INITIALIZED:
    case CUPTI_ERROR_NOT_COMPATIBLE:
      msg += ": the NVIDIA driver is too old for this CUPTI (CUDA 13.0); update the driver.";
      break;
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
      msg += ": profiling is not supported on this virtualised GPU.";
      break;
    default:
      break;
  }
  return msg;
}

void throw_cupti_error(CUptiResult code, const char* call) {
  throw CuptiError(error_message(code, call), static_cast<int>(code));
}

}  // namespace kscope::cupti
