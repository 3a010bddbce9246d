#pragma once
// Which NVML device is the CUDA device kscope profiles. CUDA ordinals are not NVML indices:
// CUDA_VISIBLE_DEVICES renumbers devices and CUDA's order (fastest first by default) can differ
// from NVML's (PCI order). The PCI bus id names the same GPU on both sides, so it is the key;
// the UUID is the fallback for the rare setups where the bus id lookup fails.

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "nvml/nvml_device.hpp"

namespace kscope::nvml {

/// The NVML device with CUDA's PCI bus id `cuda_pci_bus_id` (any form normalize_pci_bus_id
/// accepts), else the one with UUID `cuda_uuid` ("GPU-..."; empty: no fallback). nullopt when
/// neither lookup finds it; `why` then names both ids and NVML's answers.
[[nodiscard]] std::optional<NvmlDevice> find_nvml_device(std::shared_ptr<const NvmlLibrary> library,
                                                         std::string_view cuda_pci_bus_id,
                                                         std::string_view cuda_uuid,
                                                         std::string* why);

}  // namespace kscope::nvml
