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
      {"duration_source", {"activity", "profiler", "events"}},
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

// Options::sanitizer (tool "sanitizer"); checked whatever the tool, since the defaults are valid
// and a typo is a typo.
void check_sanitizer(const SanitizerOptions& o) {
  if (o.checks.empty()) {
    throw InvalidArgument("Invalid sanitizer_checks []: name at least one check, e.g. "
                          "['memcheck']. Expected any of " +
                          quoted_list(allowed_values("sanitizer_checks")) + ".");
  }
  const auto allowed = allowed_values("sanitizer_checks");
  for (auto it = o.checks.begin(); it != o.checks.end(); ++it) {
    if (std::find(allowed.begin(), allowed.end(), *it) == allowed.end()) {
      throw InvalidArgument("Invalid sanitizer_checks entry '" + *it + "'. Expected any of " +
                            quoted_list(allowed) + ".");
    }
    if (std::find(o.checks.begin(), it, *it) != it) {
      throw InvalidArgument("Invalid sanitizer_checks: '" + *it +
                            "' is listed twice; name each check once.");
    }
  }
  if (o.leak_check && std::find(o.checks.begin(), o.checks.end(), "memcheck") == o.checks.end()) {
    throw InvalidArgument(
        "sanitizer_leak_check is part of the 'memcheck' check, which sanitizer_checks does not "
        "name: add 'memcheck' to sanitizer_checks or turn sanitizer_leak_check off.");
  }
  if (o.print_limit < 0) {
    throw InvalidArgument("Invalid sanitizer_print_limit " + std::to_string(o.print_limit) +
                          ". Expected an integer >= 0 (0: no limit).");
  }
}

// Options::adaptive: its criteria, checked whether or not it is enabled (like the sanitizer
// options), and what it cannot be combined with. Needs the whole Options for the latter.
void check_adaptive(const Options& options) {
  const AdaptiveRuns& o = options.adaptive;
  if (!(o.target_rel_ci > 0 && o.target_rel_ci < 1)) {
    throw InvalidArgument("Invalid target_rel_ci " + format_general(o.target_rel_ci, 6) +
                          ". Expected a fraction of the mean between 0 and 1, e.g. 0.005 for a "
                          "CI95 half-width of 0.5 %.");
  }
  if (o.min_runs < 2) {
    throw InvalidArgument("Invalid min_runs " + std::to_string(o.min_runs) +
                          ". Expected an integer >= 2 (a confidence interval needs two runs).");
  }
  if (o.max_runs < o.min_runs) {
    throw InvalidArgument("Invalid max_runs " + std::to_string(o.max_runs) +
                          ": it must be at least min_runs (" + std::to_string(o.min_runs) + ").");
  }
  if (!(o.time_budget > 0)) {
    throw InvalidArgument("Invalid time_budget " + format_general(o.time_budget, 6) +
                          ". Expected seconds > 0 (measured time per config).");
  }
  if (o.enabled && !options.resume.empty()) {
    throw NotSupportedError(
        "resume with runs='auto' is not supported: a resumed sweep keeps the configs its journal "
        "holds with all `runs` runs, and a config of runs='auto' has as many as its stopping "
        "rule took. Run the sweep again without resume, or with a fixed runs=.");
  }
  if (o.enabled && options.tool != "cupti") {
    throw NotSupportedError(
        "runs='auto' needs the cupti tool: the stopping rule decides after each batch of runs "
        "from the values measured so far, and tool '" + options.tool +
        "' hands its values to kscope only when the re-executed program has ended "
        "(docs/options.md, \"Adaptive runs\"). Use a fixed runs= with tool '" + options.tool +
        "', or tool 'cupti'.");
  }
}

// Options::thermal but for its mode, which validate() checks with the other string options.
void check_thermal(const ThermalOptions& o) {
  if (o.wait && *o.wait < 0) {
    throw InvalidArgument("Invalid thermal_wait " + std::to_string(*o.wait) +
                          ". Expected a thermal headroom in °C >= 0 (the headroom at which "
                          "profiling pauses).");
  }
  const int wait = o.wait.value_or(kDefaultThermalWait);
  const int cont = o.cont.value_or(kDefaultThermalCont);
  if ((o.wait || o.cont) && cont <= wait) {
    const auto given = [](const std::optional<int>& v) { return v ? "" : ", the default"; };
    throw InvalidArgument("Invalid thermal control parameters: thermal_cont (" +
                          std::to_string(cont) + "°C" + given(o.cont) +
                          ") must be greater than thermal_wait (" + std::to_string(wait) + "°C" +
                          given(o.wait) +
                          "). thermal_wait is the headroom at which profiling pauses, "
                          "thermal_cont the headroom at which it resumes.");
  }
  if (o.timeout && *o.timeout <= 0) {
    throw InvalidArgument("Invalid thermal_timeout " + std::to_string(*o.timeout) +
                          ". Expected a number of seconds > 0.");
  }
  if (o.device && *o.device < 0) {
    throw InvalidArgument("Invalid thermal_device " + std::to_string(*o.device) +
                          ". Expected a CUDA device ordinal >= 0.");
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
  check_adaptive(*this);
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
  check_enum("thermal_mode", thermal.mode);
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
  check_thermal(thermal);
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
  check_sanitizer(sanitizer);
  if (cuda_graph && !(region_capture.begin && region_capture.end && region_capture.replay &&
                      region_capture.clear)) {
    throw InvalidArgument(
        "cuda_graph needs region_capture (begin, end, replay and clear): how a region is captured "
        "into a CUDA graph. In C++ use kscope::stream_region_capture(stream) "
        "(kscope/region_capture.hpp) and launch the regions' kernels on that stream; the Python "
        "front sets it itself.");
  }
  validate_info_collectors(info_collectors);
  if (!reexec_argv.empty() && reexec_argv.front().empty()) {
    throw InvalidArgument(
        "Invalid reexec_argv: its first element (the executable that re-runs this program) is "
        "empty. Give the executable and its arguments, e.g. {sys.executable, script, args...}, "
        "or leave reexec_argv empty to re-run this process's own command line.");
  }
  if (duration_source == "events" && tool != "cupti") {
    throw NotSupportedError(
        "duration_source 'events' is the cupti tool's: it records CUDA events in this process "
        "around every annotated region. Tool '" + tool + "' measures with its own profiler; use "
        "tool 'cupti' for event timing.");
  }
  if (tool == "cupti" && clock_control == "base") {
    throw NotSupportedError(
        "clock_control 'base' needs the ncu tool: the cupti tool measures with the GPU's "
        "clocks as they are (CUPTI 13.0 cannot lock clocks). Use tool 'ncu' to lock clocks to "
        "base, or clock_control 'none'.");
  }
}

}  // namespace kscope
