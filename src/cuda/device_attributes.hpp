#pragma once
// The device attributes Nsight Compute reports as `device__attribute_<name>`, under ncu's names,
// read with the CUDA runtime (cudaDeviceGetAttribute, cudaGetDeviceProperties). The names are
// known without a device (metric validation); the values need one.

#include <map>
#include <string>
#include <vector>

namespace kscope::cuda {

/// ncu's attribute names that kscope reads (without the "device__attribute_" prefix).
[[nodiscard]] const std::vector<std::string>& device_attribute_names();

/// Every attribute of device_attribute_names() for `device`, by name. Throws kscope::ToolError
/// naming the attribute when the runtime cannot read one.
[[nodiscard]] std::map<std::string, double> read_device_attributes(int device);

}  // namespace kscope::cuda
