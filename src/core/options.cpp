#include "kscope/options.hpp"

#include <algorithm>
#include <type_traits>

#include "core/number_format.hpp"
#include "core/option_table.hpp"
#include "core/option_values.hpp"
#include "core/shard.hpp"
#include "kscope/errors.hpp"

namespace kscope {
namespace {

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

// "Invalid <name> <value>. Expected <bounds.expected>." when `value` is out of `bounds`.
template <class T>
void check_bounds(const char* name, T value, const NumberBounds& b) {
  const double x = static_cast<double>(value);
  const bool above = b.low_open ? x > b.low : x >= b.low;
  const bool below = b.high_open ? x < b.high : x <= b.high;
  if (above && below) return;
  std::string text;
  if constexpr (std::is_integral_v<T>) {
    text = std::to_string(value);
  } else {
    text = b.digits > 0 ? format_general(x, b.digits) : format_shortest(x);
  }
  throw InvalidArgument("Invalid " + std::string(name) + " " + text + ". Expected " +
                        b.expected + ".");
}

// The checks of one option on its own that the table describes: its bounds, or its allowed
// values (a text; a list's entries are checked with the rules of its group).
void check_value(const OptionSpec& spec, const Options& o) {
  std::visit(
      [&](const auto& field) {
        using T = std::decay_t<decltype(field.of(o))>;
        const T& value = field.of(o);
        if constexpr (std::is_same_v<T, int> || std::is_same_v<T, double>) {
          if (spec.bounds) check_bounds(spec.name, value, *spec.bounds);
        } else if constexpr (std::is_same_v<T, std::optional<int>>) {
          if (spec.bounds && value) check_bounds(spec.name, *value, *spec.bounds);
        } else if constexpr (std::is_same_v<T, std::string>) {
          if (!spec.allowed.empty()) check_enum(spec.name, value);
        }
      },
      spec.field);
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
}

// Options::adaptive: its criteria beyond the table's bounds, checked whether or not it is
// enabled (like the sanitizer options), and what it cannot be combined with.
void check_adaptive(const Options& options) {
  const AdaptiveRuns& o = options.adaptive;
  if (o.max_runs < o.min_runs) {
    throw InvalidArgument("Invalid max_runs " + std::to_string(o.max_runs) +
                          ": it must be at least min_runs (" + std::to_string(o.min_runs) + ").");
  }
  if (o.enabled && !options.resume.empty()) {
    throw NotSupportedError(
        "resume with runs='auto' is not supported: a resumed sweep keeps the configs its journal "
        "holds with all `runs` runs, and a config of runs='auto' has as many as its stopping "
        "rule took. Run the sweep again without resume, or with a fixed runs=.");
  }
}

// Options::thermal beyond the table's checks of each member: cont above wait.
void check_thermal(const ThermalOptions& o) {
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
}

}  // namespace

const std::vector<std::string>& allowed_values(std::string_view option) {
  const OptionSpec* spec = find_option(option);
  if (spec == nullptr || spec->allowed.empty()) {
    throw InvalidArgument("unknown option '" + std::string(option) + "'");
  }
  return spec->allowed;
}

void check_option_values(const Options& o) {
  for (const auto& spec : option_table()) check_value(spec, o);
  check_adaptive(o);
  if (o.replay_mode == "range" && o.metric_replay == "kernel") {
    throw InvalidArgument(
        "Invalid metric_replay 'kernel' with replay_mode 'range': CUPTI's kernel replay replays "
        "single kernels, not ranges. Use metric_replay 'checkpoint' (the default: device memory "
        "restored between passes) or 'application'.");
  }
  if (o.metrics.empty()) {
    throw InvalidArgument("Invalid metrics []: at least one metric name is required, e.g. '" +
                          std::string(kTimeMetric) + "'.");
  }
  for (const auto& m : o.metrics) {
    if (m.find_first_not_of(" \t\r\n") == std::string::npos) {
      throw InvalidArgument("Invalid metric name '" + m + "': metric names must not be empty.");
    }
  }
  check_thermal(o.thermal);
  (void)resolve_shard(o.shard == "auto" ? std::string() : o.shard,
                      [](const char*) { return nullptr; });
  if (!o.shard_balance.empty() && o.shard.empty()) {
    throw InvalidArgument("shard_balance '" + o.shard_balance +
                          "' is given without shard: set shard to 'auto' or 'i/n', or leave "
                          "shard_balance empty.");
  }
  check_sanitizer(o.sanitizer);
  const RegionCapture& capture = o.region_capture;
  if (o.cuda_graph && !(capture.begin && capture.end && capture.replay && capture.clear)) {
    throw InvalidArgument(
        "cuda_graph needs region_capture (begin, end, replay and clear): how a region is captured "
        "into a CUDA graph. In C++ use kscope::stream_region_capture(stream) "
        "(kscope/region_capture.hpp) and launch the regions' kernels on that stream; the Python "
        "front sets it itself.");
  }
  validate_info_collectors(o.info_collectors);
  if (!o.reexec_argv.empty() && o.reexec_argv.front().empty()) {
    throw InvalidArgument(
        "Invalid reexec_argv: its first element (the executable that re-runs this program) is "
        "empty. Give the executable and its arguments, e.g. {sys.executable, script, args...}, "
        "or leave reexec_argv empty to re-run this process's own command line.");
  }
}

}  // namespace kscope
