#include "nvml/nvml_library.hpp"

#include <dlfcn.h>

#include <initializer_list>

namespace kscope::nvml {
namespace {

// Text for the return codes worth naming, for when nvmlErrorString itself is missing.
const char* fallback_text(Return code) {
  switch (code) {
    case kErrorUninitialized: return "Uninitialized";
    case kErrorInvalidArgument: return "Invalid Argument";
    case kErrorNotSupported: return "Not Supported";
    case kErrorNoPermission: return "Insufficient Permissions";
    case kErrorNotFound: return "Not Found";
    case kErrorInsufficientSize: return "Insufficient Size";
    case kErrorDriverNotLoaded: return "Driver Not Loaded";
    case kErrorLibraryNotFound: return "NVML Shared Library Not Found";
    case kErrorFunctionNotFound: return "Function Not Found";
    case kErrorGpuIsLost: return "GPU is lost";
    case kErrorArgumentVersionMismatch: return "Argument Version Mismatch";
    default: return "Unknown Error";
  }
}

template <class F>
Entry<F> resolve(void* handle, std::initializer_list<const char*> names) {
  Entry<F> e;
  e.name = *names.begin();
  for (const char* n : names) {
    if (void* p = dlsym(handle, n)) {
      e.fn = reinterpret_cast<F>(p);
      e.name = n;
      break;
    }
  }
  return e;
}

// NVML sits next to the driver's libcuda.so.1. When the loader's search path does not reach it
// but the CUDA runtime has already loaded libcuda (from wherever it found it), look there.
std::string next_to_libcuda(const std::string& file) {
  void* cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (!cuda) return {};
  std::string dir;
  Dl_info info{};
  void* symbol = dlsym(cuda, "cuInit");
  if (symbol && dladdr(symbol, &info) && info.dli_fname) {
    dir = info.dli_fname;
    dir = dir.substr(0, dir.find_last_of('/') + 1);
  }
  dlclose(cuda);
  return dir.empty() ? std::string() : dir + file;
}

}  // namespace

NvmlLibrary::NvmlLibrary(void* handle, std::string path) : handle_(handle), loaded_from_(std::move(path)) {
  auto& s = symbols_;
  s.init = resolve<InitFn>(handle, {"nvmlInit_v2", "nvmlInit"});
  s.shutdown = resolve<ShutdownFn>(handle, {"nvmlShutdown"});
  s.error_string = resolve<ErrorStringFn>(handle, {"nvmlErrorString"});
  s.handle_by_pci_bus_id = resolve<HandleByStringFn>(
      handle, {"nvmlDeviceGetHandleByPciBusId_v2", "nvmlDeviceGetHandleByPciBusId"});
  s.handle_by_uuid = resolve<HandleByStringFn>(handle, {"nvmlDeviceGetHandleByUUID"});
  s.name = resolve<DeviceStringFn>(handle, {"nvmlDeviceGetName"});
  s.uuid = resolve<DeviceStringFn>(handle, {"nvmlDeviceGetUUID"});
  s.temperature_v = resolve<TemperatureVFn>(handle, {"nvmlDeviceGetTemperatureV"});
  s.temperature = resolve<TemperatureLegacyFn>(handle, {"nvmlDeviceGetTemperature"});
  s.margin_temperature = resolve<MarginTemperatureFn>(handle, {"nvmlDeviceGetMarginTemperature"});
  s.clock_info = resolve<ClockInfoFn>(handle, {"nvmlDeviceGetClockInfo"});
  s.max_clock_info = resolve<ClockInfoFn>(handle, {"nvmlDeviceGetMaxClockInfo"});
  s.clock_event_reasons = resolve<ClockReasonsFn>(
      handle, {"nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons"});
  s.power_usage = resolve<PowerUsageFn>(handle, {"nvmlDeviceGetPowerUsage"});
  Dl_info info{};
  if (s.init.fn && dladdr(reinterpret_cast<void*>(s.init.fn), &info) && info.dli_fname) {
    loaded_from_ = info.dli_fname;
  }
}

std::shared_ptr<NvmlLibrary> NvmlLibrary::load(std::string* why, const std::string& path) {
  (void)dlerror();
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* err = dlerror();
    const std::string reason = err ? err : "unknown dlopen error";
    const std::string beside_cuda = path.find('/') == std::string::npos ? next_to_libcuda(path) : "";
    if (!beside_cuda.empty()) handle = dlopen(beside_cuda.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      if (why) {
        *why = "cannot load " + path + " (" + reason +
               "); NVML comes with the NVIDIA driver, so there is probably no driver on this machine";
      }
      return nullptr;
    }
  }
  std::shared_ptr<NvmlLibrary> lib(new NvmlLibrary(handle, path));
  if (!lib->symbols_.init.fn || !lib->symbols_.shutdown.fn) {
    if (why) *why = path + " does not export nvmlInit_v2/nvmlShutdown: it is not a usable NVML library";
    return nullptr;
  }
  std::string init_error;
  if (!lib->call(lib->symbols_.init, &init_error)) {
    if (why) *why = "NVML (" + lib->loaded_from_ + ") is not usable: " + init_error;
    return nullptr;
  }
  lib->initialised_ = true;
  return lib;
}

NvmlLibrary::~NvmlLibrary() {
  if (initialised_) (void)symbols_.shutdown.fn();  // NVML counts init/shutdown pairs
  if (handle_) dlclose(handle_);
}

std::string NvmlLibrary::describe(Return code) const {
  const char* text = symbols_.error_string.fn ? symbols_.error_string.fn(code) : nullptr;
  return std::string(text ? text : fallback_text(code)) + " (" + std::to_string(code) + ")";
}

}  // namespace kscope::nvml
