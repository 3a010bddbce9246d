#pragma once
// The metric catalogue the metric subcommands describe: of the chip named with --chip
// (offline, no GPU needed) or of the GPU present.

#include <string>

#include "collect/cupti/metric_catalog.hpp"

namespace kscope::cli {

/// Catalogue of `chip` when non-empty (a chip this CUPTI does not know is a usage error), else of
/// the current CUDA device (throws NoDeviceError "no CUDA device: ... pass --chip" when there is
/// none).
[[nodiscard]] cupti::MetricCatalog open_catalog(const std::string& chip);

/// The help text of --chip, shared by the subcommands.
[[nodiscard]] std::string chip_option_help();

}  // namespace kscope::cli
