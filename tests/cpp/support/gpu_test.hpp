#pragma once
// Helpers for GPU tests: device checks and tolerant comparisons.

#include <string>

namespace kscope::testing {

/// True when a CUDA device is usable; otherwise `reason` says why.
bool gpu_available(std::string* reason);

/// Absolute path of a file under tests/fixtures/.
std::string fixture(const std::string& relative);

/// A fresh empty directory under the build tree for test outputs, with a trailing '/'.
std::string scratch_dir(const std::string& name);

}  // namespace kscope::testing
