#pragma once
// One GPU as NVML sees it, and the readings kscope takes from it. Every reading is optional:
// nullopt when the entry point is missing, the GPU does not support it or the call failed, and
// then `why` (when given) says which of these it was.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "nvml/nvml_library.hpp"

namespace kscope::nvml {

class NvmlDevice {
 public:
  /// `pci_bus_id`: the canonical bus id the handle was found by (for messages).
  NvmlDevice(std::shared_ptr<const NvmlLibrary> library, DeviceHandle handle, std::string pci_bus_id);

  [[nodiscard]] DeviceHandle handle() const { return handle_; }
  [[nodiscard]] const std::string& pci_bus_id() const { return pci_bus_id_; }
  /// Product name ("NVIDIA H200"); empty when NVML cannot tell.
  [[nodiscard]] std::string name() const;
  /// "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"; empty when NVML cannot tell.
  [[nodiscard]] std::string uuid() const;

  /// Thermal headroom: degrees C left before the GPU slows down (NVML margin temperature).
  [[nodiscard]] std::optional<int> margin_temperature(std::string* why = nullptr) const;
  /// Die temperature in degrees C (nvmlDeviceGetTemperatureV, else the deprecated
  /// nvmlDeviceGetTemperature).
  [[nodiscard]] std::optional<int> temperature(std::string* why = nullptr) const;
  /// Current clock of `clock_type` (kClockSm, kClockMem, ...) in MHz.
  [[nodiscard]] std::optional<int> clock_mhz(int clock_type, std::string* why = nullptr) const;
  /// Highest clock of `clock_type` the GPU can run at, in MHz.
  [[nodiscard]] std::optional<int> max_clock_mhz(int clock_type, std::string* why = nullptr) const;
  /// Board power draw in W.
  [[nodiscard]] std::optional<double> power_w(std::string* why = nullptr) const;
  /// Why the clocks are where they are: NVML clock-event reasons bitmask (0x1 idle, 0x4 power
  /// cap, 0x20/0x40 thermal slowdown, ...).
  [[nodiscard]] std::optional<std::uint64_t> clock_event_reasons(std::string* why = nullptr) const;

 private:
  [[nodiscard]] std::string text(const Entry<DeviceStringFn>& entry, unsigned int size) const;
  std::shared_ptr<const NvmlLibrary> lib_;
  DeviceHandle handle_;
  std::string pci_bus_id_;
};

}  // namespace kscope::nvml
