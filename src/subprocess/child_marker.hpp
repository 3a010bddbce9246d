#pragma once
// The environment marker of the re-execution protocol (docs/tools/ncu.md). A parent that
// re-runs the program under an external tool sets KSCOPE_CHILD_SESSION=<name>:<id>, the session
// it wants measured (name and per-name call counter), and KSCOPE_CHILD_REPORT=<path>, where the
// child writes its ChildReport. kscope::profile in the child runs only that session.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kscope::subprocess {

inline constexpr const char* kChildSessionVariable = "KSCOPE_CHILD_SESSION";
inline constexpr const char* kChildReportVariable = "KSCOPE_CHILD_REPORT";

struct ChildMarker {
  std::string name;         ///< session name
  int id = 0;               ///< per-name call counter of that session
  std::string report_path;  ///< where the child writes its ChildReport

  /// Whether the session (`name`, `id`) is the one the parent asked for.
  [[nodiscard]] bool matches(std::string_view session_name, int session_id) const {
    return session_name == name && session_id == id;
  }
  /// "<name>:<id>", the value of KSCOPE_CHILD_SESSION.
  [[nodiscard]] std::string session_value() const { return name + ":" + std::to_string(id); }
  /// The variables a parent adds to the child's environment.
  [[nodiscard]] std::vector<std::pair<std::string, std::string>> environment() const;

  /// Parses the two variable values. The name may contain ':' (the id follows the last one).
  /// Throws kscope::Error naming the variable when a value is malformed.
  [[nodiscard]] static ChildMarker parse(const std::string& session, const std::string& report);
  /// The marker of this process, or nullopt when it is not a re-executed child.
  [[nodiscard]] static std::optional<ChildMarker> from_environment();
};

}  // namespace kscope::subprocess
