#include "kscope/options.hpp"

#include <algorithm>
#include <map>

#include "core/number_format.hpp"
#include "core/shard.hpp"
#include "kscope/errors.hpp"

namespace kscope {
namespace {

const std::map<std::string, std::vector<std::string>, std::less<>>& table() {
  static const std::map<std::string, std::vector<std::string>, std::less<>> t = {
      {"tool", {"cupti", "ncu", "sanitizer"}},
      {"cache_control", {"all", "none"}},
      {"clock_control", {"base", "none"}},
      {"replay_mode", {"kernel", "range"}},
      {"metric_replay", {"checkpoint", "application", "kernel"}},
      {"duration_source", {"activity", "profiler"}},
      {"thermal_mode", {"auto", "manual", "off"}},
      {"on_config_error", {"raise", "skip"}},
      {"sanitizer_checks", {"memcheck", "racecheck", "initcheck", "synccheck"}},
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
  const auto allowed = allowed_values(option);
  if (std::find(allowed.begin(), allowed.end(), value) == allowed.end()) {
    throw InvalidArgument("Invalid " + std::string(option) + " '" + value + "'. Expected " +
                          quoted_list(allowed) + ".");
  }
}

// The compute-sanitizer options (tool "sanitizer"); checked whatever the tool, since the
// defaults are valid and a typo is a typo.
void check_sanitizer_options(const Options& o) {
  if (o.sanitizer_checks.empty()) {
    throw InvalidArgument("Invalid sanitizer_checks []: name at least one check, e.g. "
                          "['memcheck']. Expected any of " +
                          quoted_list(allowed_values("sanitizer_checks")) + ".");
  }
  const auto allowed = allowed_values("sanitizer_checks");
  for (auto it = o.sanitizer_checks.begin(); it != o.sanitizer_checks.end(); ++it) {
    if (std::find(allowed.begin(), allowed.end(), *it) == allowed.end()) {
      throw InvalidArgument("Invalid sanitizer_checks entry '" + *it + "'. Expected any of " +
                            quoted_list(allowed) + ".");
    }
    if (std::find(o.sanitizer_checks.begin(), it, *it) != it) {
      throw InvalidArgument("Invalid sanitizer_checks: '" + *it +
                            "' is listed twice; name each check once.");
    }
  }
  if (o.sanitizer_leak_check &&
      std::find(o.sanitizer_checks.begin(), o.sanitizer_checks.end(), "memcheck") ==
          o.sanitizer_checks.end()) {
    throw InvalidArgument(
        "sanitizer_leak_check is part of the 'memcheck' check, which sanitizer_checks does not "
        "name: add 'memcheck' to sanitizer_checks or turn sanitizer_leak_check off.");
  }
  if (o.sanitizer_print_limit < 0) {
    throw InvalidArgument("Invalid sanitizer_print_limit " +
                          std::to_string(o.sanitizer_print_limit) +
                          ". Expected an integer >= 0 (0: no limit).");
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
  check_enum("metric_replay", metric_replay);
  if (replay_mode == "range" && metric_replay == "kernel") {
    throw InvalidArgument(
        "Invalid metric_replay 'kernel' with replay_mode 'range': CUPTI's kernel replay replays "
        "single kernels, not ranges. Use metric_replay 'checkpoint' (the default: device memory "
        "restored between passes) or 'application'.");
  }
  check_enum("duration_source", duration_source);
  check_enum("thermal_mode", thermal_mode);
  check_enum("on_config_error", on_config_error);
  if (metrics.empty()) {
    throw InvalidArgument("Invalid metrics []: at least one metric name is required, e.g. '" +
                          std::string(kTimeMetric) + "'.");
  }
  for (const auto& m : metrics) {
    if (m.find_first_not_of(" \t\r\n") == std::string::npos) {
      throw InvalidArgument("Invalid metric name '" + m + "': metric names must not be empty.");
    }
  }
  if (thermal_wait && *thermal_wait < 0) {
    throw InvalidArgument("Invalid thermal_wait " + std::to_string(*thermal_wait) +
                          ". Expected a thermal headroom in °C >= 0 (the headroom at which "
                          "profiling pauses).");
  }
  const int wait = thermal_wait.value_or(kDefaultThermalWait);
  const int cont = thermal_cont.value_or(kDefaultThermalCont);
  if ((thermal_wait || thermal_cont) && cont <= wait) {
    const auto given = [](const std::optional<int>& v) { return v ? "" : ", the default"; };
    throw InvalidArgument("Invalid thermal control parameters: thermal_cont (" +
                          std::to_string(cont) + "°C" + given(thermal_cont) +
                          ") must be greater than thermal_wait (" + std::to_string(wait) + "°C" +
                          given(thermal_wait) +
                          "). thermal_wait is the headroom at which profiling pauses, "
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
  if (!(ncu_part_seconds > 0) || ncu_part_seconds > 1e9) {
    throw InvalidArgument("Invalid ncu_part_seconds " + format_shortest(ncu_part_seconds) +
                          ". Expected a number of seconds > 0 (how long one re-run under ncu "
                          "measures before its part is journaled).");
  }
  (void)resolve_shard(shard == "auto" ? std::string() : shard, [](const char*) { return nullptr; });
  if (!shard_balance.empty() && shard.empty()) {
    throw InvalidArgument("shard_balance '" + shard_balance +
                          "' is given without shard: set shard to 'auto' or 'i/n', or leave "
                          "shard_balance empty.");
  }
  check_sanitizer_options(*this);
  validate_info_collectors(info_collectors);
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
