#include "metric_catalog_source.hpp"

#include "argument_values.hpp"
#include "cuda/device.hpp"
#include "kscope/errors.hpp"

namespace kscope::cli {

cupti::MetricCatalog open_catalog(const std::string& chip) {
  if (!chip.empty()) return as_usage_error([&] { return cupti::MetricCatalog(chip); });
  std::string reason;
  if (!cuda::device_available(&reason)) {
    throw NoDeviceError("no CUDA device: " + reason +
                        " Pass --chip NAME (e.g. --chip GH100) to use a chip's catalogue offline.");
  }
  return cupti::MetricCatalog::for_device(cuda::require_device());
}

std::string chip_option_help() {
  return "Chip whose catalogue to use, e.g. GH100 (H100/H200), AD102, GB100 (case-insensitive; "
         "works without a GPU; `kscope query-metrics --list-chips` lists them). Default: the "
         "current CUDA device.";
}

}  // namespace kscope::cli
