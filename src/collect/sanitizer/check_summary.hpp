#pragma once
// The one line per check the sanitizer tool prints at INFO: "memcheck: clean", or
// "memcheck: 3 errors in 2 kernels (oob, scale); 1 leak (1024 bytes); 2 CUDA API calls failed
// after the first error (cudaDeviceSynchronize, cudaFree)". Failed API calls and leaks are not
// counted as errors of a kernel.

#include <string>
#include <vector>

#include "kscope/results.hpp"

namespace kscope::sanitizer {

/// Summary of `check` over `findings` (findings of other checks are ignored).
[[nodiscard]] std::string check_summary(const std::string& check,
                                        const std::vector<Finding>& findings);

/// The warning for a check whose report reached compute-sanitizer's print limit `limit`: what is
/// missing and how to raise the limit.
[[nodiscard]] std::string truncation_warning(const std::string& check, int limit);

}  // namespace kscope::sanitizer
