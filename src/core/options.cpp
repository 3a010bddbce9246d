#include "kscope/options.hpp"

#include <algorithm>
#include <map>

#include "kscope/errors.hpp"

namespace kscope {
namespace {

const std::map<std::string, std::vector<std::string>, std::less<>>& table() {
  static const std::map<std::string, std::vector<std::string>, std::less<>> t = {
      {"tool", {"cupti", "ncu", "sanitizer"}},
      {"cache_control", {"all", "none"}},
      {"clock_control", {"base", "none"}},
      {"replay_mode", {"kernel", "range"}},
      {"thermal_mode", {"auto", "manual", "off"}},
  };
  return t;
}

std::string quoted_list(const std::vector<std::string>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) out += i + 1 == values.size() ? " or " : ", ";
    out += "'" + values[i] + "'";
  }
  return out;
}

void check_enum(std::string_view option, const std::string& value) {
  const auto& allowed = allowed_values(option);
  if (std::find(allowed.begin(), allowed.end(), value) == allowed.end()) {
    throw InvalidArgument("Invalid " + std::string(option) + " '" + value + "'. Expected " +
                          quoted_list(allowed) + ".");
  }
}

}  // namespace

const std::vector<std::string>& allowed_values(std::string_view option) {
  auto it = table().find(option);
  if (it == table().end()) {
    throw InvalidArgument("unknown option '" + std::string(option) + "'");
  }
  return it->second;
}

void Options::validate() const {
  if (runs < 1) {
    throw InvalidArgument("Invalid runs " + std::to_string(runs) +
                          ". Expected an integer >= 1 (measured repetitions per config).");
  }
  if (warmup_runs < 0) {
    throw InvalidArgument("Invalid warmup_runs " + std::to_string(warmup_runs) +
                          ". Expected an integer >= 0.");
  }
  check_enum("tool", tool);
  check_enum("cache_control", cache_control);
  check_enum("clock_control", clock_control);
  check_enum("replay_mode", replay_mode);
  check_enum("thermal_mode", thermal_mode);
  if (metrics.empty()) {
    throw InvalidArgument("Invalid metrics []: at least one metric name is required, e.g. '" +
                          std::string(kTimeMetric) + "'.");
  }
  for (const auto& m : metrics) {
    if (m.find_first_not_of(" \t\r\n") == std::string::npos) {
      throw InvalidArgument("Invalid metric name '" + m + "': metric names must not be empty.");
    }
  }
  if (thermal_wait && thermal_cont && *thermal_cont <= *thermal_wait) {
    throw InvalidArgument("Invalid thermal control parameters: thermal_cont (" +
                          std::to_string(*thermal_cont) +
                          "°C) must be greater than thermal_wait (" + std::to_string(*thermal_wait) +
                          "°C). thermal_wait is the headroom at which profiling pauses, "
                          "thermal_cont the headroom at which it resumes.");
  }
  if (thermal_timeout && *thermal_timeout <= 0) {
    throw InvalidArgument("Invalid thermal_timeout " + std::to_string(*thermal_timeout) +
                          ". Expected a number of seconds > 0.");
  }
  if (thermal_device && *thermal_device < 0) {
    throw InvalidArgument("Invalid thermal_device " + std::to_string(*thermal_device) +
                          ". Expected a CUDA device ordinal >= 0.");
  }
  if (!reexec_argv.empty() && reexec_argv.front().empty()) {
    throw InvalidArgument(
        "Invalid reexec_argv: its first element (the executable that re-runs this program) is "
        "empty. Give the executable and its arguments, e.g. {sys.executable, script, args...}, "
        "or leave reexec_argv empty to re-run this process's own command line.");
  }
  if (tool == "cupti" && clock_control == "base") {
    throw NotSupportedError(
        "clock_control 'base' needs the ncu tool: the cupti tool measures with the GPU's "
        "clocks as they are (CUPTI 13.0 cannot lock clocks). Use tool 'ncu' to lock clocks to "
        "base, or clock_control 'none'.");
  }
}

}  // namespace kscope
