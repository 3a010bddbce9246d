#pragma once
// Where the Nsight Compute CLI is: KSCOPE_NCU, then PATH, then the CUDA toolkit, then the
// standalone Nsight Compute installs (newest first).

#include <string>
#include <vector>

namespace kscope::ncu {

/// What locate_ncu searches; from_environment() reads this process's environment.
struct NcuSearch {
  std::string override_path;  ///< KSCOPE_NCU: used as is (must be executable)
  std::string path_value;     ///< PATH
  std::vector<std::string> toolkit_dirs{"/usr/local/cuda/bin"};
  std::string standalone_root = "/opt/nvidia/nsight-compute";  ///< <root>/<version>/ncu

  [[nodiscard]] static NcuSearch from_environment();
};

/// Absolute path of ncu. Throws kscope::ToolError saying how to install it or point kscope at
/// it (KSCOPE_NCU, PATH) and that the cupti tool needs no ncu; or naming KSCOPE_NCU when it is
/// set to something that is not an executable file.
[[nodiscard]] std::string locate_ncu(const NcuSearch& search = NcuSearch::from_environment());

}  // namespace kscope::ncu
