#pragma once
// Finding external tools (ncu, compute-sanitizer) on disk without a shell: `which` semantics
// over an explicit PATH value, so callers and tests control what is searched.

#include <string>

namespace kscope::subprocess {

/// Whether `path` names an executable regular file.
[[nodiscard]] bool is_executable_file(const std::string& path);

/// The first executable `name` in the ':'-separated directories of `path_value` (empty entries
/// mean the current directory, as in PATH), or "" when there is none (or `path_value` is empty).
[[nodiscard]] std::string find_in_path(const std::string& name, const std::string& path_value);

}  // namespace kscope::subprocess
