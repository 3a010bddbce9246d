#include "thermal/nvml_gpu_monitor.hpp"

#include <exception>

#include "nvml/device_mapping.hpp"

namespace kscope::thermal {

NvmlGpuMonitor::NvmlGpuMonitor(std::shared_ptr<const nvml::NvmlLibrary> library, IdentityFn identity)
    : library_(std::move(library)), identity_(std::move(identity)) {}

bool NvmlGpuMonitor::select(int cuda_device, std::string* why) {
  if (current_ && cuda_device == ordinal_) return true;
  auto it = found_.find(cuda_device);
  if (it == found_.end()) {
    cuda::DeviceIdentity id;
    try {
      id = identity_(cuda_device);
    } catch (const std::exception& e) {
      if (why) *why = e.what();
      return false;
    }
    auto device = nvml::find_nvml_device(library_, id.pci_bus_id, id.uuid, why);
    if (!device) return false;
    it = found_.emplace(cuda_device, std::move(*device)).first;
  }
  ordinal_ = cuda_device;
  current_ = &it->second;
  return true;
}

std::string NvmlGpuMonitor::describe() const {
  if (!current_) return "no GPU";
  const std::string name = current_->name();
  return "CUDA device " + std::to_string(ordinal_) + " (" + (name.empty() ? "" : name + ", ") +
         current_->pci_bus_id() + ")";
}

std::optional<int> NvmlGpuMonitor::headroom(std::string* why) {
  if (!current_) {
    if (why) *why = "no GPU selected";
    return std::nullopt;
  }
  return current_->margin_temperature(why);
}

TelemetrySample NvmlGpuMonitor::read() {
  TelemetrySample s;
  if (!current_) return s;
  s.sm_clock_mhz = current_->clock_mhz(nvml::kClockSm);
  s.memory_clock_mhz = current_->clock_mhz(nvml::kClockMem);
  s.temperature_c = current_->temperature();
  s.headroom_c = current_->margin_temperature();
  s.power_w = current_->power_w();
  s.clock_event_reasons = current_->clock_event_reasons();
  return s;
}

}  // namespace kscope::thermal
