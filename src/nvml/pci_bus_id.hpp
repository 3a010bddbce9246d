#pragma once
// PCI bus ids as the CUDA runtime and NVML write them. CUDA gives "0000:00:06.0" (4-digit
// domain), nvidia-smi and NVML "00000000:00:06.0" (8-digit domain, upper-case hex); NVML's
// lookup accepts both, but comparing ids and reporting them needs one canonical form.

#include <optional>
#include <string>
#include <string_view>

namespace kscope::nvml {

/// The canonical form "DDDDDDDD:BB:DD.F" (8-digit domain, upper-case hex, as nvidia-smi prints
/// it) of `text`, a bus id "[domain:]bus:device.function" in hex of any case with a domain of
/// up to 8 digits (none means 0), surrounded by optional white space or NUL padding.
/// nullopt when `text` is not a PCI bus id (bus > 0xFF, device > 0x1F, function > 7, ...).
[[nodiscard]] std::optional<std::string> normalize_pci_bus_id(std::string_view text);

/// Whether two bus ids, in any of the forms above, name the same PCI function.
[[nodiscard]] bool same_pci_bus_id(std::string_view a, std::string_view b);

}  // namespace kscope::nvml
