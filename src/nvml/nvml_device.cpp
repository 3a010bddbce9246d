#include "nvml/nvml_device.hpp"

#include <vector>

namespace kscope::nvml {

NvmlDevice::NvmlDevice(std::shared_ptr<const NvmlLibrary> library, DeviceHandle handle,
                       std::string pci_bus_id)
    : lib_(std::move(library)), handle_(handle), pci_bus_id_(std::move(pci_bus_id)) {}

std::string NvmlDevice::text(const Entry<DeviceStringFn>& entry, unsigned int size) const {
  std::vector<char> buf(size, '\0');
  if (!lib_->call(entry, nullptr, handle_, buf.data(), size)) return {};
  buf.back() = '\0';
  return buf.data();
}

std::string NvmlDevice::name() const { return text(lib_->symbols().name, kNameBufferSize); }

std::string NvmlDevice::uuid() const { return text(lib_->symbols().uuid, kUuidBufferSize); }

std::optional<int> NvmlDevice::margin_temperature(std::string* why) const {
  MarginTemperatureV1 m{struct_version(sizeof(MarginTemperatureV1), 1), 0};
  if (!lib_->call(lib_->symbols().margin_temperature, why, handle_, &m)) return std::nullopt;
  return m.margin_temperature;
}

std::optional<int> NvmlDevice::temperature(std::string* why) const {
  // The versioned call first; drivers without it (or rejecting our struct version) still
  // answer the deprecated one.
  TemperatureV1 t{struct_version(sizeof(TemperatureV1), 1), kTemperatureGpu, 0};
  if (lib_->call(lib_->symbols().temperature_v, nullptr, handle_, &t)) return t.temperature;
  unsigned int legacy = 0;
  if (!lib_->call(lib_->symbols().temperature, why, handle_, kTemperatureGpu, &legacy)) {
    return std::nullopt;
  }
  return static_cast<int>(legacy);
}

std::optional<int> NvmlDevice::clock_mhz(int clock_type, std::string* why) const {
  unsigned int mhz = 0;
  if (!lib_->call(lib_->symbols().clock_info, why, handle_, clock_type, &mhz)) return std::nullopt;
  return static_cast<int>(mhz);
}

std::optional<int> NvmlDevice::max_clock_mhz(int clock_type, std::string* why) const {
  unsigned int mhz = 0;
  if (!lib_->call(lib_->symbols().max_clock_info, why, handle_, clock_type, &mhz)) {
    return std::nullopt;
  }
  return static_cast<int>(mhz);
}

std::optional<double> NvmlDevice::power_w(std::string* why) const {
  unsigned int milliwatts = 0;
  if (!lib_->call(lib_->symbols().power_usage, why, handle_, &milliwatts)) return std::nullopt;
  return milliwatts / 1000.0;
}

std::optional<std::uint64_t> NvmlDevice::clock_event_reasons(std::string* why) const {
  unsigned long long reasons = 0;
  if (!lib_->call(lib_->symbols().clock_event_reasons, why, handle_, &reasons)) return std::nullopt;
  return static_cast<std::uint64_t>(reasons);
}

}  // namespace kscope::nvml
