#pragma once
// NVML loaded at run time: dlopen("libnvidia-ml.so.1"), our own declarations, every entry point
// resolved with dlsym. A missing library or a failing nvmlInit makes NVML "unavailable" (load()
// says why); a missing entry point makes that one reading "not supported". Nothing links NVML,
// so kscope starts on machines without an NVIDIA driver.

#include <memory>
#include <string>
#include <utility>

#include "nvml/nvml_declarations.hpp"

namespace kscope::nvml {

/// One resolved entry point: `fn` is null when the library does not export it; `name` is the
/// symbol that was found (or the preferred one, for messages, when none was).
template <class F>
struct Entry {
  F fn = nullptr;
  const char* name = "";
};

class NvmlLibrary {
 public:
  static constexpr const char* kDefaultPath = "libnvidia-ml.so.1";

  /// The entry points kscope uses. Where NVML renamed a function with the same signature, the
  /// newer name is tried first, then the older one.
  struct Symbols {
    Entry<InitFn> init;                          // nvmlInit_v2, nvmlInit
    Entry<ShutdownFn> shutdown;                  // nvmlShutdown
    Entry<ErrorStringFn> error_string;           // nvmlErrorString
    Entry<HandleByStringFn> handle_by_pci_bus_id;  // nvmlDeviceGetHandleByPciBusId_v2, ..._ById
    Entry<HandleByStringFn> handle_by_uuid;      // nvmlDeviceGetHandleByUUID
    Entry<DeviceStringFn> name;                  // nvmlDeviceGetName
    Entry<DeviceStringFn> uuid;                  // nvmlDeviceGetUUID
    Entry<TemperatureVFn> temperature_v;         // nvmlDeviceGetTemperatureV
    Entry<TemperatureLegacyFn> temperature;      // nvmlDeviceGetTemperature (deprecated in 13.0)
    Entry<MarginTemperatureFn> margin_temperature;  // nvmlDeviceGetMarginTemperature
    Entry<ClockInfoFn> clock_info;               // nvmlDeviceGetClockInfo
    Entry<ClockInfoFn> max_clock_info;           // nvmlDeviceGetMaxClockInfo
    Entry<ClockReasonsFn> clock_event_reasons;   // ...CurrentClocksEventReasons, ...ThrottleReasons
    Entry<PowerUsageFn> power_usage;             // nvmlDeviceGetPowerUsage
  };

  /// Loads and initialises NVML from `path` (a bare file name is also looked for next to the
  /// libcuda.so.1 the process has loaded). Returns null when NVML is unusable (no library, no
  /// nvmlInit, nvmlInit failed: typically no NVIDIA driver) and then sets `why` to one sentence
  /// naming the library and the reason.
  [[nodiscard]] static std::shared_ptr<NvmlLibrary> load(std::string* why,
                                                         const std::string& path = kDefaultPath);

  ~NvmlLibrary();
  NvmlLibrary(const NvmlLibrary&) = delete;             // owns the dlopen handle
  NvmlLibrary& operator=(const NvmlLibrary&) = delete;  // owns the dlopen handle

  [[nodiscard]] const Symbols& symbols() const { return symbols_; }
  /// The file the library was loaded from (as the dynamic loader resolved it).
  [[nodiscard]] const std::string& loaded_from() const { return loaded_from_; }
  /// "Not Supported (3)": NVML's text for a return code, then the code.
  [[nodiscard]] std::string describe(Return code) const;

  /// Calls an entry point. Returns true on success; otherwise sets `why` (if not null) to
  /// "<symbol> returned <text> (<code>)" or, when the symbol is missing, to a "not supported"
  /// sentence. Never calls a null pointer.
  template <class F, class... Args>
  bool call(const Entry<F>& entry, std::string* why, Args&&... args) const {
    if (!entry.fn) {
      if (why) *why = std::string(entry.name) + " is not exported by " + loaded_from_ + ": not supported";
      return false;
    }
    const Return r = entry.fn(std::forward<Args>(args)...);
    if (r == kSuccess) return true;
    if (why) *why = std::string(entry.name) + " returned " + describe(r);
    return false;
  }

 private:
  NvmlLibrary(void* handle, std::string path);
  void* handle_ = nullptr;
  bool initialised_ = false;
  std::string loaded_from_;
  Symbols symbols_;
};

}  // namespace kscope::nvml
