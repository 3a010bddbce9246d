#include "subprocess/child_marker.hpp"

#include <cstdlib>

#include "kscope/errors.hpp"

namespace kscope::subprocess {

std::vector<std::pair<std::string, std::string>> ChildMarker::environment() const {
  return {{kChildSessionVariable, session_value()}, {kChildReportVariable, report_path}};
}

ChildMarker ChildMarker::parse(const std::string& session, const std::string& report) {
  const auto colon = session.rfind(':');
  const std::string digits = colon == std::string::npos ? "" : session.substr(colon + 1);
  const bool numeric = !digits.empty() && digits.size() < 10 &&
                       digits.find_first_not_of("0123456789") == std::string::npos;
  if (colon == 0 || !numeric) {
    throw Error(std::string("malformed ") + kChildSessionVariable + "='" + session +
                "': expected <session name>:<call id>. This variable is set by kscope when it "
                "re-runs a program under ncu or compute-sanitizer; unset it to run normally.");
  }
  if (report.empty()) {
    throw Error(std::string(kChildSessionVariable) + " is set but " + kChildReportVariable +
                " is not: both are set by kscope when it re-runs a program under an external "
                "tool; unset " + kChildSessionVariable + " to run normally.");
  }
  return ChildMarker{session.substr(0, colon), std::stoi(digits), report};
}

std::optional<ChildMarker> ChildMarker::from_environment() {
  const char* session = std::getenv(kChildSessionVariable);
  if (!session || !*session) return std::nullopt;
  const char* report = std::getenv(kChildReportVariable);
  return parse(session, report ? report : "");
}

}  // namespace kscope::subprocess
