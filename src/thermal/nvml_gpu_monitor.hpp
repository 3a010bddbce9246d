#pragma once
// The GpuMonitor that reads NVML. A CUDA ordinal is mapped to its NVML device through the PCI
// bus id (nvml/device_mapping.hpp); mappings are cached, so re-selecting is cheap.

#include <functional>
#include <map>
#include <memory>

#include "cuda/device_identity.hpp"
#include "nvml/nvml_device.hpp"
#include "thermal/gpu_monitor.hpp"

namespace kscope::thermal {

class NvmlGpuMonitor : public GpuMonitor {
 public:
  /// `identity` gives a CUDA ordinal's bus id and UUID (throws kscope::Error for a bad ordinal).
  using IdentityFn = std::function<cuda::DeviceIdentity(int cuda_device)>;

  explicit NvmlGpuMonitor(std::shared_ptr<const nvml::NvmlLibrary> library,
                          IdentityFn identity = cuda::device_identity);

  bool select(int cuda_device, std::string* why) override;
  [[nodiscard]] std::string describe() const override;
  std::optional<int> headroom(std::string* why) override;
  TelemetrySample read() override;

  /// The selected NVML device (null before a successful select).
  [[nodiscard]] const nvml::NvmlDevice* device() const { return current_; }

 private:
  std::shared_ptr<const nvml::NvmlLibrary> library_;
  IdentityFn identity_;
  std::map<int, nvml::NvmlDevice> found_;
  int ordinal_ = -1;
  const nvml::NvmlDevice* current_ = nullptr;
};

}  // namespace kscope::thermal
