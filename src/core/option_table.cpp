#include "core/option_table.hpp"

#include <limits>
#include <type_traits>
#include <utility>

namespace kscope {
namespace {

template <class F>
OptionFieldRef field_of(F f) {
  using T = std::remove_reference_t<decltype(f(std::declval<Options&>()))>;
  return OptionField<T>{+f};
}

// The field `member` of an Options (a member, or a member of one of its groups).
#define KSCOPE_FIELD(member) field_of([](Options& o) -> auto& { return o.member; })

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr OptionRecord kSweep = OptionRecord::kSweep;
constexpr OptionRecord kFree = OptionRecord::kFree;
constexpr OptionRecord kCode = OptionRecord::kNotStored;
const std::optional<NumberBounds> kAny;

// Integer bounds: value >= low.
NumberBounds at_least(int low, const char* expected) {
  return {static_cast<double>(low), false, kInf, false, expected, 0};
}

// option_type_name's names.
struct TypeName {
  const char* operator()(const OptionField<int>&) const { return "int"; }
  const char* operator()(const OptionField<double>&) const { return "float"; }
  const char* operator()(const OptionField<bool>&) const { return "bool"; }
  const char* operator()(const OptionField<std::string>&) const { return "str"; }
  const char* operator()(const OptionField<std::vector<std::string>>&) const { return "list[str]"; }
  const char* operator()(const OptionField<std::optional<int>>&) const { return "int | None"; }
  const char* operator()(const OptionField<std::optional<bool>>&) const { return "bool | None"; }
  const char* operator()(const OptionField<Verbosity>&) const { return "Verbosity"; }
  const char* operator()(const OptionField<std::vector<InfoCollector>>&) const {
    return "list[InfoCollector]";
  }
  template <class T>
  const char* operator()(const OptionField<T>&) const {
    static_assert(IsOptionCallback<T>::value, "an option type without a name here");
    return "callable";
  }
};

}  // namespace

const std::vector<OptionSpec>& option_table() {
  // clang-format off
  static const std::vector<OptionSpec> table = {
    {"runs", KSCOPE_FIELD(runs), kSweep, {},
     at_least(1, "an integer >= 1 (measured repetitions per config)"), false,
     "measured repetitions per config (>= 1)"},
    {"auto_runs", KSCOPE_FIELD(adaptive.enabled), kSweep, {}, kAny, false,
     "adaptive run count (Python runs='auto')"},
    {"target_rel_ci", KSCOPE_FIELD(adaptive.target_rel_ci), kSweep, {},
     NumberBounds{0, true, 1, true, "a fraction of the mean between 0 and 1, e.g. 0.005 for a "
                                    "CI95 half-width of 0.5 %", 6}, false,
     "auto_runs: CI95 half-width to reach, fraction of the mean"},
    {"min_runs", KSCOPE_FIELD(adaptive.min_runs), kSweep, {},
     at_least(2, "an integer >= 2 (a confidence interval needs two runs)"), false,
     "auto_runs: first batch, fewest runs"},
    {"max_runs", KSCOPE_FIELD(adaptive.max_runs), kSweep, {}, kAny, false,
     "auto_runs: most runs per config (>= min_runs)"},
    {"time_budget", KSCOPE_FIELD(adaptive.time_budget), kSweep, {},
     NumberBounds{0, true, kInf, false, "seconds > 0 (measured time per config)", 6}, false,
     "auto_runs: seconds per config"},
    {"warmup_runs", KSCOPE_FIELD(warmup_runs), kSweep, {}, at_least(0, "an integer >= 0"), false,
     "unmeasured repetitions per config before the measured ones (>= 0)"},
    {"metrics", KSCOPE_FIELD(metrics), kSweep, {}, kAny, false, "metric names"},
    {"tool", KSCOPE_FIELD(tool), kSweep, {}, kAny, false,
     "the collection tool, one of available_tools() (default \"cupti\"; the tool registry "
     "checks it)"},
    {"cache_control", KSCOPE_FIELD(cache_control), kSweep, {"all", "region", "none"}, kAny, false,
     "\"all\" (flush L2 before every kernel of an annotated region), \"region\" (at every "
     "annotated region's entry only) or \"none\""},
    {"clock_control", KSCOPE_FIELD(clock_control), kSweep, {"base", "none"}, kAny, false,
     "\"none\" or \"base\" (ncu tool only)"},
    {"replay_mode", KSCOPE_FIELD(replay_mode), kSweep, {"kernel", "range"}, kAny, false,
     "\"kernel\" or \"range\""},
    {"metric_replay", KSCOPE_FIELD(metric_replay), kSweep, {"checkpoint", "application", "kernel"},
     kAny, false,
     "cupti tool, multi-pass metric sets: \"checkpoint\" (execute each run once per pass, device "
     "memory restored between passes), \"application\" (the same without restoring) or "
     "\"kernel\" (CUPTI's kernel replay)"},
    {"duration_source", KSCOPE_FIELD(duration_source), kSweep, {"activity", "profiler", "events"},
     kAny, false,
     "cupti tool, gpu__time_duration.sum: \"activity\" (activity records), \"profiler\" (the "
     "range profiler: ncu's definition) or \"events\" (CUDA events around each region)"},
    {"cuda_graph", KSCOPE_FIELD(cuda_graph), kSweep, {}, kAny, false,
     "replay the annotated regions from CUDA graphs (needs region_capture_*)"},
    {"ignore_kernel_list", KSCOPE_FIELD(ignore_kernel_list), kSweep, {}, kAny, false,
     "kernel names dropped before attribution"},
    {"combine_kernel_metrics", KSCOPE_FIELD(combine_kernel_metrics), kFree, {}, kAny, false,
     "(lhs: float, rhs: float) -> float reducing the kernels of one annotation/run"},
    {"derive_metric", KSCOPE_FIELD(derive_metric), kFree, {}, kAny, false,
     "(metric_values: list[float], config: Config) -> list[DerivedValue]"},
    {"normalize_against", KSCOPE_FIELD(normalize_against), kSweep, {}, kAny, true,
     "baseline annotation; \"\" for none"},
    {"verbosity", KSCOPE_FIELD(verbosity), kFree, {}, kAny, false, "how much is printed"},
    {"output_prefix", KSCOPE_FIELD(output_prefix), kFree, {}, kAny, false,
     "prefix of every file written; \"\" for a fresh temporary directory"},
    {"output_csv", KSCOPE_FIELD(output_csv), kFree, {}, kAny, false,
     "also write raw and processed CSV files"},
    {"on_config_error", KSCOPE_FIELD(on_config_error), kFree, {"raise", "skip"}, kAny, false,
     "\"raise\" (default) or \"skip\": what an exception of the benchmark does"},
    {"resume", KSCOPE_FIELD(resume), kFree, {}, kAny, false,
     "journal of an interrupted run of this sweep to resume; \"\" for none"},
    {"ncu_part_seconds", KSCOPE_FIELD(ncu_part_seconds), kFree, {},
     NumberBounds{0, true, 1e9, false, "a number of seconds > 0 (how long one re-run under ncu "
                                       "measures before its part is journaled)", 0}, false,
     "tool \"ncu\": seconds one re-run measures before its part is journaled"},
    {"shard", KSCOPE_FIELD(shard), kFree, {}, kAny, false,
     "\"\" (every config), \"auto\" (the launcher's rank) or \"i/n\""},
    {"shard_balance", KSCOPE_FIELD(shard_balance), kFree, {}, kAny, false,
     "result or journal whose per-config times balance the shards"},
    {"thermal_mode", KSCOPE_FIELD(thermal.mode), kSweep, {"auto", "manual", "off"}, kAny, false,
     "\"auto\", \"manual\" or \"off\""},
    {"thermal_wait", KSCOPE_FIELD(thermal.wait), kSweep, {},
     at_least(0, "a thermal headroom in °C >= 0 (the headroom at which profiling pauses)"), false,
     "headroom (degC) that pauses profiling"},
    {"thermal_cont", KSCOPE_FIELD(thermal.cont), kSweep, {}, kAny, false,
     "headroom (degC) at which a pause ends"},
    {"thermal_timeout", KSCOPE_FIELD(thermal.timeout), kSweep, {},
     NumberBounds{0, true, kInf, false, "a number of seconds > 0", 0}, false,
     "longest pause in seconds"},
    {"thermal_device", KSCOPE_FIELD(thermal.device), kSweep, {},
     at_least(0, "a CUDA device ordinal >= 0"), false, "CUDA ordinal to watch; None: current"},
    {"reexec_argv", KSCOPE_FIELD(reexec_argv), kFree, {}, kAny, false,
     "command that re-runs this program for the ncu and sanitizer tools"},
    {"reexec_unavailable", KSCOPE_FIELD(reexec_unavailable), kFree, {}, kAny, false,
     "why this program cannot be re-run (\"\": it can)"},
    {"sanitizer_checks", KSCOPE_FIELD(sanitizer.checks), kSweep,
     {"memcheck", "racecheck", "initcheck", "synccheck"}, kAny, false,
     "tool \"sanitizer\": any of \"memcheck\", \"racecheck\", \"initcheck\", \"synccheck\""},
    {"sanitizer_leak_check", KSCOPE_FIELD(sanitizer.leak_check), kSweep, {}, kAny, false,
     "tool \"sanitizer\": memcheck also reports leaks"},
    {"sanitizer_print_limit", KSCOPE_FIELD(sanitizer.print_limit), kSweep, {},
     at_least(0, "an integer >= 0 (0: no limit)"), false,
     "tool \"sanitizer\": most records per run of a check (0: no limit)"},
    {"info_collectors", KSCOPE_FIELD(info_collectors), kSweep, {}, kAny, false,
     "custom columns: list of InfoCollector"},
    {"call_name", KSCOPE_FIELD(call_name), kCode, {}, kAny, false,
     "how error messages name the profiling call (\"kscope::profile()\")"},
    {"region_capture_begin", KSCOPE_FIELD(region_capture.begin), kCode, {}, kAny, false,
     "cuda_graph: (name: str) -> None, start capturing"},
    {"region_capture_end", KSCOPE_FIELD(region_capture.end), kCode, {}, kAny, false,
     "cuda_graph: (failed: bool) -> None, stop capturing and launch once"},
    {"region_capture_replay", KSCOPE_FIELD(region_capture.replay), kCode, {}, kAny, false,
     "cuda_graph: (index: int) -> None, launch again"},
    {"region_capture_clear", KSCOPE_FIELD(region_capture.clear), kCode, {}, kAny, false,
     "cuda_graph: () -> None, drop the config's graphs"},
    {"log", KSCOPE_FIELD(log), kCode, {}, kAny, false,
     "(text: str) -> None receiving everything kscope prints"},
    {"on_warning", KSCOPE_FIELD(on_warning), kCode, {}, kAny, false,
     "(text: str) -> None receiving each warning"},
    {"interactive", KSCOPE_FIELD(interactive), kCode, {}, kAny, false,
     "whether progress is redrawn in place; None: isatty(stdout) without log"},
    {"on_progress", KSCOPE_FIELD(on_progress), kCode, {}, kAny, false,
     "(update: ProgressUpdate) -> None receiving the sweep's progress instead of the printed "
     "line"},
  };
  // clang-format on
  return table;
}

#undef KSCOPE_FIELD

const OptionSpec* find_option(std::string_view name) {
  for (const auto& spec : option_table()) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

const char* option_type_name(const OptionSpec& spec) { return std::visit(TypeName{}, spec.field); }

}  // namespace kscope
