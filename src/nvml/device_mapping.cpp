#include "nvml/device_mapping.hpp"

#include "nvml/pci_bus_id.hpp"

namespace kscope::nvml {

std::optional<NvmlDevice> find_nvml_device(std::shared_ptr<const NvmlLibrary> library,
                                           std::string_view cuda_pci_bus_id,
                                           std::string_view cuda_uuid, std::string* why) {
  const auto bus_id = normalize_pci_bus_id(cuda_pci_bus_id);
  std::string bus_error = "it is not a PCI bus id";
  DeviceHandle handle = nullptr;
  if (bus_id && library->call(library->symbols().handle_by_pci_bus_id, &bus_error, bus_id->c_str(), &handle)) {
    return NvmlDevice(std::move(library), handle, *bus_id);
  }
  std::string uuid_error = "CUDA gave no UUID";
  if (!cuda_uuid.empty()) {
    const std::string uuid(cuda_uuid);
    if (library->call(library->symbols().handle_by_uuid, &uuid_error, uuid.c_str(), &handle)) {
      return NvmlDevice(std::move(library), handle, bus_id.value_or(std::string(cuda_pci_bus_id)));
    }
  }
  if (why) {
    *why = "NVML has no device with CUDA's PCI bus id '" + std::string(cuda_pci_bus_id) + "' (" +
           bus_error + ") nor with its UUID '" + std::string(cuda_uuid) + "' (" + uuid_error + ")";
  }
  return std::nullopt;
}

}  // namespace kscope::nvml
