// kscope::Options and what it refers to. Callback fields accept Python callables: nanobind's
// std::function caster re-acquires the GIL for every call (the engine runs with the GIL
// released) and keeps a reference to the callable while the engine holds a copy.

#include <nanobind/stl/function.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include "bind_fields.hpp"
#include "bindings.hpp"
#include "kscope/options.hpp"

namespace kscope::python {

void bind_options(nb::module_& m) {
  nb::enum_<Verbosity>(m, "Verbosity", "How much kscope prints; level N prints levels <= N.")
      .value("SILENT", Verbosity::kSilent, "nothing at all")
      .value("INFO", Verbosity::kInfo, "header, progress, paths, completion (default)")
      .value("DEBUG", Verbosity::kDebug, "also per-config boxes and tool details");

  nb::class_<DerivedValue>(m, "DerivedValue", "One value returned by a derived-metric function.")
      .def(nb::init<>())
      .def(
          "__init__",
          [](DerivedValue* self, std::string name, double value, std::optional<std::string> unit) {
            new (self) DerivedValue{std::move(name), value, std::move(unit)};
          },
          nb::arg("name"), nb::arg("value"), nb::arg("unit") = nb::none())
      .def_rw("name", &DerivedValue::name, "metric name of the derived row")
      .def_rw("value", &DerivedValue::value, "the value (NaN allowed)")
      .def_rw("unit", &DerivedValue::unit, "unit; None leaves the Unit column empty")
      .def("__repr__", [](const DerivedValue& d) {
        return "DerivedValue(" + d.name + ", " + std::to_string(d.value) + ", " +
               d.unit.value_or("None") + ")";
      });

  nb::class_<ProgressUpdate>(m, "ProgressUpdate", "Where a sweep stands (Options.on_progress).")
      .def(nb::init<>())
      .def_rw("config", &ProgressUpdate::config, "the current config (0-based)")
      .def_rw("num_configs", &ProgressUpdate::num_configs, "configs in the sweep")
      .def_rw("done_runs", &ProgressUpdate::done_runs, "runs finished, warm-up runs included")
      .def_rw("total_runs", &ProgressUpdate::total_runs, "runs in the sweep")
      .def_rw("label", &ProgressUpdate::label, "the current config's values")
      .def_rw("finished", &ProgressUpdate::finished, "the sweep's last update");

  auto options =
      nb::class_<Options>(m, "Options",
                          "Every option of profile(); defaults follow nsight-python. validate() "
                          "checks them all before any GPU work.")
          .def(nb::init<>())
          .def_rw("runs", &Options::runs, "measured repetitions per config (>= 1)")
          .def_rw("warmup_runs", &Options::warmup_runs,
                  "unmeasured repetitions per config before the measured ones (>= 0)")
          .def_rw("metrics", &Options::metrics, "metric names")
          .def_rw("tool", &Options::tool, "\"cupti\" (default), \"ncu\" or \"sanitizer\"")
          .def_rw("cache_control", &Options::cache_control,
                  "\"all\" (flush L2 at every annotated region's entry) or \"none\"")
          .def_rw("clock_control", &Options::clock_control, "\"none\" or \"base\" (ncu tool only)")
          .def_rw("replay_mode", &Options::replay_mode, "\"kernel\" or \"range\"")
          .def_rw("metric_replay", &Options::metric_replay,
                  "cupti tool, multi-pass metric sets: \"checkpoint\" (execute each run once per "
                  "pass, device memory restored between passes), \"application\" (the same "
                  "without restoring) or \"kernel\" (CUPTI's kernel replay)")
          .def_rw("duration_source", &Options::duration_source,
                  "cupti tool, gpu__time_duration.sum: \"activity\" (activity records), "
                  "\"profiler\" (the range profiler: ncu's definition) or \"events\" (CUDA "
                  "events around each region)")
          .def_rw("cuda_graph", &Options::cuda_graph,
                  "replay the annotated regions from CUDA graphs (needs region_capture_*)")
          .def_rw("ignore_kernel_list", &Options::ignore_kernel_list,
                  "kernel names dropped before attribution")
          .def_rw("normalize_against", &Options::normalize_against,
                  "baseline annotation; \"\" for none")
          .def_rw("info_collectors", &Options::info_collectors,
                  "custom columns: list of InfoCollector")
          .def_rw("verbosity", &Options::verbosity, "how much is printed")
          .def_rw("output_prefix", &Options::output_prefix,
                  "prefix of every file written; \"\" for a fresh temporary directory")
          .def_rw("output_csv", &Options::output_csv, "also write raw and processed CSV files")
          .def_rw("on_config_error", &Options::on_config_error,
                  "\"raise\" (default) or \"skip\": what an exception of the benchmark does")
          .def_rw("resume", &Options::resume,
                  "journal of an interrupted run of this sweep to resume; \"\" for none")
          .def_rw("ncu_part_seconds", &Options::ncu_part_seconds,
                  "tool \"ncu\": seconds one re-run measures before its part is journaled")
          .def_rw("shard", &Options::shard,
                  "\"\" (every config), \"auto\" (the launcher's rank) or \"i/n\"")
          .def_rw("shard_balance", &Options::shard_balance,
                  "result or journal whose per-config times balance the shards")
          .def_rw("reexec_argv", &Options::reexec_argv,
                  "command that re-runs this program for the ncu and sanitizer tools")
          .def_rw("call_name", &Options::call_name,
                  "how error messages name the profiling call (\"kscope::profile()\")")
          .def_rw("reexec_unavailable", &Options::reexec_unavailable,
                  "why this program cannot be re-run (\"\": it can)")
          .def_rw("interactive", &Options::interactive,
                  "whether progress is redrawn in place; None: isatty(stdout) without log")
          .def("validate", &Options::validate,
               "Raises InvalidArgument (bad values) or NotSupportedError (valid values the tool "
               "cannot "
               "honour).");
  def_adaptive_runs(options);  // Options::adaptive (Python runs="auto")
  // Options::sanitizer.
  def_grouped(options, "sanitizer_checks", &Options::sanitizer, &SanitizerOptions::checks,
              "tool \"sanitizer\": any of \"memcheck\", \"racecheck\", \"initcheck\", "
              "\"synccheck\"");
  def_grouped(options, "sanitizer_leak_check", &Options::sanitizer, &SanitizerOptions::leak_check,
              "tool \"sanitizer\": memcheck also reports leaks");
  def_grouped(options, "sanitizer_print_limit", &Options::sanitizer,
              &SanitizerOptions::print_limit,
              "tool \"sanitizer\": most records per run of a check (0: no limit)");
  // Options::thermal.
  def_grouped(options, "thermal_mode", &Options::thermal, &ThermalOptions::mode,
              "\"auto\", \"manual\" or \"off\"");
  def_grouped(options, "thermal_wait", &Options::thermal, &ThermalOptions::wait,
              "headroom (degC) that pauses profiling");
  def_grouped(options, "thermal_cont", &Options::thermal, &ThermalOptions::cont,
              "headroom (degC) at which a pause ends");
  def_grouped(options, "thermal_timeout", &Options::thermal, &ThermalOptions::timeout,
              "longest pause in seconds");
  def_grouped(options, "thermal_device", &Options::thermal, &ThermalOptions::device,
              "CUDA ordinal to watch; None: current");
  // Options::region_capture (cuda_graph).
  def_grouped_callback(options, "region_capture_begin", &Options::region_capture,
                       &RegionCapture::begin, "cuda_graph: (name: str) -> None, start capturing");
  def_grouped_callback(options, "region_capture_end", &Options::region_capture,
                       &RegionCapture::end,
                       "cuda_graph: (failed: bool) -> None, stop capturing and launch once");
  def_grouped_callback(options, "region_capture_replay", &Options::region_capture,
                       &RegionCapture::replay, "cuda_graph: (index: int) -> None, launch again");
  def_grouped_callback(options, "region_capture_clear", &Options::region_capture,
                       &RegionCapture::clear, "cuda_graph: () -> None, drop the config's graphs");
  def_callback(options, "combine_kernel_metrics", &Options::combine_kernel_metrics,
               "(lhs: float, rhs: float) -> float reducing the kernels of one annotation/run");
  def_callback(options, "derive_metric", &Options::derive_metric,
               "(metric_values: list[float], config: Config) -> list[DerivedValue]");
  def_callback(options, "log", &Options::log,
               "(text: str) -> None receiving everything kscope prints");
  def_callback(options, "on_warning", &Options::on_warning,
               "(text: str) -> None receiving each warning");
  def_callback(options, "on_progress", &Options::on_progress,
               "(update: ProgressUpdate) -> None receiving the sweep's progress instead of the "
               "printed line");

  m.def("allowed_values", &allowed_values, nb::arg("option"),
        "Allowed values of a string option (\"tool\", \"cache_control\", ...), in message order.");
  m.attr("TIME_METRIC") = kTimeMetric;
  m.attr("DEFAULT_THERMAL_WAIT") = kDefaultThermalWait;
  m.attr("DEFAULT_THERMAL_CONT") = kDefaultThermalCont;
}

}  // namespace kscope::python
