#pragma once
// Where compute-sanitizer is: KSCOPE_COMPUTE_SANITIZER, then PATH, then the CUDA toolkit
// (/usr/local/cuda/bin, /usr/local/cuda/compute-sanitizer).

#include <string>
#include <vector>

namespace kscope::sanitizer {

/// What locate_compute_sanitizer searches; from_environment() reads this process's environment.
struct SanitizerSearch {
  std::string override_path;  ///< KSCOPE_COMPUTE_SANITIZER: used as is (must be executable)
  std::string path_value;     ///< PATH
  std::vector<std::string> toolkit_paths{"/usr/local/cuda/bin/compute-sanitizer",
                                         "/usr/local/cuda/compute-sanitizer/compute-sanitizer"};

  [[nodiscard]] static SanitizerSearch from_environment();
};

/// Absolute path of compute-sanitizer. Throws kscope::ToolError saying how to install it or point
/// kscope at it (KSCOPE_COMPUTE_SANITIZER, PATH); or naming KSCOPE_COMPUTE_SANITIZER when it is
/// set to something that is not an executable file.
[[nodiscard]] std::string locate_compute_sanitizer(
    const SanitizerSearch& search = SanitizerSearch::from_environment());

/// The version from `compute-sanitizer --version` output ("... Version 2025.3.1.0 (build ...)"
/// -> "2025.3.1.0"); "" when the text has none.
[[nodiscard]] std::string parse_sanitizer_version(const std::string& text);

/// Runs `<sanitizer> --version`; "" when it prints no version (the version is informative only).
[[nodiscard]] std::string query_sanitizer_version(const std::string& sanitizer);

}  // namespace kscope::sanitizer
