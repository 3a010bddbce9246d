#pragma once
// Resolution of Options::output_prefix and the per-name call counter used in file names.

#include <string>

namespace kscope {

/// `prefix` with its directory created, or a fresh /tmp/kscope_XXXXXX/ when empty. Throws
/// kscope::Error naming the directory when it cannot be created.
[[nodiscard]] std::string resolve_output_prefix(const std::string& prefix);

/// 0 for the first call with `name` in this process, then 1, 2, ...
[[nodiscard]] int next_session_id(const std::string& name);

}  // namespace kscope
