#include "collect/ncu/ncu_log.hpp"

#include <fstream>
#include <sstream>

namespace kscope::ncu {
namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

}  // namespace

NcuLog parse_ncu_log(std::string_view text) {
  NcuLog log;
  std::size_t start = 0;
  while (start < text.size()) {
    auto nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    const std::string_view line = text.substr(start, nl - start);
    start = nl + 1;
    if (starts_with(line, "==ERROR==")) {
      const std::string msg = trim(line.substr(9));
      if (msg.find("ERR_NVGPUCTRPERM") != std::string::npos) log.counter_permission_denied = true;
      const std::string_view marker = "Failed to find metric";
      const auto m = msg.find(marker);
      if (m != std::string::npos) {
        log.unknown_metric_error = true;
        std::string name = trim(std::string_view(msg).substr(m + marker.size()));
        // "Failed to find metric regex:^foo$" / "Failed to find metric foo." forms
        if (starts_with(name, "regex:^")) name = name.substr(7);
        while (!name.empty() && (name.back() == '.' || name.back() == '$')) name.pop_back();
        if (!name.empty()) log.unknown_metrics.push_back(name);
      }
      log.errors.push_back(msg);
    } else if (starts_with(line, "==PROF==")) {
      log.progress_tail.push_back(trim(line.substr(8)));
      if (log.progress_tail.size() > kNcuProgressTailLines) {
        log.progress_tail.erase(log.progress_tail.begin());
      }
    } else if (starts_with(line, "==WARNING==")) {
      const std::string msg = trim(line.substr(11));
      if (msg.find("No kernels were profiled") != std::string::npos) log.no_kernels_profiled = true;
      log.warnings.push_back(msg);
    }
  }
  return log;
}

NcuLog read_ncu_log(const std::string& path) {
  std::ifstream in(path);
  if (!in) return {};
  std::stringstream s;
  s << in.rdbuf();
  return parse_ncu_log(s.str());
}

}  // namespace kscope::ncu
