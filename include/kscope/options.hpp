#pragma once
/// @file options.hpp
/// kscope::Options: every knob of a profiling session. Options::validate() checks them all and
/// throws before any GPU work; kscope::profile calls it first.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kscope/config.hpp"
#include "kscope/info_collector.hpp"

namespace kscope {

/// How much kscope prints. Level N prints everything at levels <= N.
enum class Verbosity : int {
  kSilent = 0,  ///< nothing at all
  kInfo = 3,    ///< header, progress, journal/CSV paths, completion (default)
  kDebug = 4,   ///< also per-config boxes, tool command lines, per-pass details
};

/// One value returned by a derived-metric function.
struct DerivedValue {
  std::string name;                 ///< metric name of the derived row (e.g. "GB/s")
  double value = 0;                 ///< NaN is allowed
  std::optional<std::string> unit;  ///< unit; nullopt leaves the Unit column empty
};

/// derive_metric(metric values in Options::metrics order, config) -> derived metrics.
using DeriveFn =
    std::function<std::vector<DerivedValue>(const std::vector<double>& metric_values,
                                            const Config& config)>;
/// Binary reducer over the kernels of one annotation in one run (e.g. sum).
using CombineFn = std::function<double(double lhs, double rhs)>;
/// Receives every line kscope prints (without a trailing newline unless part of the text).
using LogSink = std::function<void(std::string_view text)>;

/// Where a sweep stands: what Options::on_progress receives.
struct ProgressUpdate {
  std::size_t config = 0;       ///< the current config (0-based)
  std::size_t num_configs = 0;  ///< configs in the sweep
  std::size_t done_runs = 0;    ///< runs finished, warm-up runs included
  std::size_t total_runs = 0;   ///< runs in the sweep, warm-up runs included
  std::string label;            ///< the current config's values, as in the progress line
  bool finished = false;        ///< the sweep's last update
};
/// A progress display of the caller's own (a notebook's progress bar).
using ProgressFn = std::function<void(const ProgressUpdate& update)>;

/// The default metric: kernel duration in ns.
inline constexpr const char* kTimeMetric = "gpu__time_duration.sum";

/**
 * Adaptive run count (Options::adaptive; Python runs="auto", docs/options.md, "Adaptive runs"):
 * with `enabled`, Options::runs is ignored and each config takes batches of measured runs until
 * every (annotation, metric) of it has a CI95 half-width within target_rel_ci of its mean,
 * max_runs are done, time_budget is spent, or more runs stop narrowing the interval (the noise
 * floor). Tool "cupti" only. The criteria are validated whether or not `enabled` is set.
 *
 * Flat names (Python keywords, result and journal keys, error messages): `enabled` is auto_runs
 * (Python runs="auto"); target_rel_ci, min_runs, max_runs and time_budget keep their names.
 */
struct AdaptiveRuns {
  /// Adaptive run count on (flat name: auto_runs).
  bool enabled = false;
  /// The CI95 half-width to reach, as a fraction of the mean (0.005: 0.5 %), > 0.
  double target_rel_ci = 0.005;
  /// Measured runs of the first batch, and the fewest per config (>= 2).
  int min_runs = 5;
  /// The most measured runs per config (>= min_runs).
  int max_runs = 10000;
  /// Seconds of measured runs per config after which no further batch starts (> 0).
  double time_budget = 1.0;
};

/**
 * Tool "sanitizer" (Options::sanitizer, docs/tools/sanitizer.md): what compute-sanitizer checks
 * and how much it reports. Validated whatever the tool, since the defaults are valid and a typo
 * is a typo.
 *
 * Flat names: sanitizer_<member> (sanitizer_checks, sanitizer_leak_check,
 * sanitizer_print_limit).
 */
struct SanitizerOptions {
  /// The compute-sanitizer checks to run, each in its own re-execution of the program: any of
  /// "memcheck" (out-of-bounds and misaligned accesses; default), "racecheck" (shared-memory
  /// races), "initcheck" (reads of uninitialised global memory), "synccheck" (invalid use of
  /// barriers).
  std::vector<std::string> checks{"memcheck"};
  /// With "memcheck": also report device memory allocated during a run and still allocated
  /// when the session ends (compute-sanitizer --leak-check full).
  bool leak_check = false;
  /// Most records compute-sanitizer reports per run of a check (its --print-limit, which also
  /// caps its XML report); 0: no limit. kscope warns when a check reaches it, since later errors
  /// are then missing.
  int print_limit = 1000;
};

/// Defaults of ThermalOptions::wait and ThermalOptions::cont (degC of headroom).
inline constexpr int kDefaultThermalWait = 10;
inline constexpr int kDefaultThermalCont = 20;

/**
 * Thermal control (Options::thermal, docs/telemetry.md): before every run kscope reads the
 * GPU's thermal headroom and, at or below `wait`, pauses until it is back to `cont`; in "auto"
 * mode `cont` adapts to how fast the GPU heats up.
 *
 * Flat names: thermal_<member> (thermal_mode, thermal_wait, thermal_cont, thermal_timeout,
 * thermal_device).
 */
struct ThermalOptions {
  /// "auto" (adaptive), "manual" (fixed thresholds) or "off".
  std::string mode = "auto";
  /// Thermal headroom (degC below the slowdown limit, >= 0) at or below which kscope pauses
  /// (kDefaultThermalWait when unset).
  std::optional<int> wait;
  /// Thermal headroom at which a pause ends (kDefaultThermalCont when unset); must be greater
  /// than `wait`, defaults included.
  std::optional<int> cont;
  /// Longest pause in seconds (180).
  std::optional<int> timeout;
  /// CUDA ordinal of the GPU to watch; nullopt: the current device before every run.
  std::optional<int> device;
};

/**
 * How Options::cuda_graph captures an annotated region into a CUDA graph and launches it again
 * (docs/options.md, "CUDA graphs"). kscope decides when: per config, its first measured
 * execution runs the benchmark with every region captured (begin/end) and launched once, its
 * later executions launch the captured regions again (replay), each inside its annotation,
 * instead of running the benchmark. The Python front captures with torch.cuda.CUDAGraph; in C++,
 * kscope::stream_region_capture (kscope/region_capture.hpp) captures the kernels of a stream.
 *
 * Flat names: region_capture_<member> (region_capture_begin, region_capture_end,
 * region_capture_replay, region_capture_clear).
 */
struct RegionCapture {
  /// Region `name` opens in a capture execution (after its cache flush): capture the GPU work
  /// launched from now on instead of running it.
  std::function<void(const std::string& name)> begin;
  /// The region closes (`failed`: it threw): stop capturing; unless it failed, launch the
  /// captured work once (the region is still open) and keep it as the config's next region.
  std::function<void(bool failed)> end;
  /// Launches the config's kept region `index` (0-based, in capture order) again.
  std::function<void(std::size_t index)> replay;
  /// The config's kept regions are no longer needed.
  std::function<void()> clear;
};

/**
 * Every option of kscope::profile. Defaults follow nsight-python. String-valued enums are
 * validated by validate(), which names the bad value and the allowed ones.
 *
 * The options of one concern are grouped: `adaptive` (runs="auto"), `sanitizer` (tool
 * "sanitizer"), `thermal` (thermal control) and `region_capture` (cuda_graph). Everywhere outside C++ (the Python keywords,
 * result and journal files, docs/options.md, error messages) every option has one flat name:
 * `thermal.mode` is thermal_mode, `sanitizer.checks` is sanitizer_checks, `adaptive.enabled` is
 * auto_runs; each group's comment gives its flat names.
 *
 * @code
 *   kscope::Options opt;
 *   opt.runs = 20;
 *   opt.cache_control = "none";
 *   opt.thermal.mode = "manual";
 *   opt.thermal.wait = 15;
 *   opt.derive_metric = [](const std::vector<double>& m, const kscope::Config& c) {
 *     double bytes = 3.0 * 4 * c.get<double>(0);
 *     return std::vector<kscope::DerivedValue>{{"bandwidth", bytes / m[0], "GB/s"}};
 *   };
 * @endcode
 */
struct Options {
  /// Measured repetitions per config (>= 1); ignored with adaptive.enabled.
  int runs = 1;
  /// Adaptive run count instead of a fixed `runs` (Python runs="auto").
  AdaptiveRuns adaptive;
  /// Unmeasured repetitions per config before the measured ones (>= 0). Kernels launched in
  /// warm-up runs are discarded; use them for autotuning, caches and lazy initialisation.
  int warmup_runs = 0;
  /// Metric names (whitespace is stripped). The cupti tool times kernels
  /// ("gpu__time_duration.sum", ns) and collects any other Nsight Compute metric of the GPU's
  /// chip with the CUPTI Range Profiler (docs/tools/cupti-metrics.md).
  std::vector<std::string> metrics{kTimeMetric};
  /// Collection tool: "cupti" (in-process, default), "ncu" or "sanitizer".
  std::string tool = "cupti";
  /// Tool "sanitizer": its checks and reporting.
  SanitizerOptions sanitizer;
  /// "all": flush the L2 cache at the entry of every annotated region (after the GPU work
  /// launched before it) by writing a scratch buffer of twice the L2 size on the device and
  /// discarding it, and again before every later kernel the region launches (on its stream,
  /// outside the measured kernels), so that every kernel starts cold like ncu's default
  /// (duration_source "events" and replay_mode "range" measure a region as one interval and
  /// flush at its entry only). "region": the entry flush only; later kernels of one region see
  /// what the earlier ones left. "none": leave caches warm.
  std::string cache_control = "all";
  /// "none": leave GPU clocks alone (default); "base": lock to base clocks (ncu tool only).
  std::string clock_control = "none";
  /// "kernel": one result per kernel; "range": one result per annotated range.
  std::string replay_mode = "kernel";
  /// How the cupti tool replays a hardware-counter metric set that needs several passes
  /// (docs/tools/cupti-metrics.md): "checkpoint" (default) executes each measured run once per
  /// pass, restoring device memory from a CUPTI checkpoint before every pass after the first
  /// (correct for any benchmark whose kernels are the same in every execution; host-side effects
  /// happen once per pass); "application" does the same without saving memory (faster, for
  /// benchmarks that do not depend on the state earlier executions left); "kernel" is CUPTI's
  /// kernel replay: each annotated kernel is replayed in isolation, the benchmark executes once,
  /// but passes after the first run with the caches the previous pass left. One-pass sets are
  /// never replayed. replay_mode "range" takes "checkpoint" or "application".
  std::string metric_replay = "checkpoint";
  /// How the cupti tool measures gpu__time_duration.sum (docs/tools/cupti.md): "activity"
  /// (default) from CUPTI's kernel activity records, the kernel's execution from its start to its
  /// end, a few microseconds of host cost per launch, kernels not serialised; "profiler" through
  /// the CUPTI Range Profiler, Nsight Compute's own definition (it adds the GPU's launch set-up
  /// and drain, ~0.8 us for short kernels on an H200), each measured kernel serialised, the range
  /// profiler's set-up paid once per profile() call; "events": a pair of CUDA events on the
  /// legacy default stream around every annotated region, the first queued behind its cache
  /// flush, which is then not waited for: the region's wall time on the GPU from the end of the
  /// flush, with the gaps between its kernels and the launch overhead the flush did not hide
  /// (what Triton's do_bench reports), one value per region (Kernel "events"), no CUPTI.
  std::string duration_source = "activity";
  /// Replays annotated regions from CUDA graphs (docs/options.md, "CUDA graphs"): per config, the
  /// first measured execution captures every region (region_capture) and launches it once; the
  /// others launch the captured regions again instead of running the benchmark, so that a run
  /// costs one graph launch per region on the host. Warm-up runs execute the benchmark as usual.
  /// Needs region_capture.
  bool cuda_graph = false;
  /// cuda_graph: how a region is captured and launched again.
  RegionCapture region_capture;
  /// Kernel names (demangled base name, full demangled or mangled) dropped before attribution.
  std::vector<std::string> ignore_kernel_list;
  /// Reduces the N kernels of one annotation in one run to one value per metric. Without it an
  /// annotation that launches more than one kernel is an error.
  CombineFn combine_kernel_metrics;
  /// Derived metrics computed per run from the measured values and the config.
  DeriveFn derive_metric;
  /// Annotation used as baseline: AvgValue becomes current / baseline. Empty: no normalisation.
  std::string normalize_against;
  /// Custom columns: callbacks called once, per config, before each run or at each annotation
  /// entry (include/kscope/info_collector.hpp, docs/info-collectors.md).
  std::vector<InfoCollector> info_collectors;
  /// How much is printed.
  Verbosity verbosity = Verbosity::kInfo;
  /// Prefix of every file written (journal, CSV, tool reports). Empty: a fresh directory
  /// /tmp/kscope_XXXXXX/ is created.
  std::string output_prefix;
  /// Also write profiled_data-<name>-<id>.csv and processed_data-<name>-<id>.csv.
  bool output_csv = false;
  /// What an exception thrown by the benchmark does (docs/options.md#failing-configs): "raise"
  /// (default, as nsight-python) ends the sweep and propagates it; "skip" records the config as
  /// failed (ConfigFailure: Results::failed_configs(), the journal, JSON, the Error column) and
  /// goes on with the next config. A device left unusable (a sticky CUDA error such as an illegal
  /// address) ends the sweep in either mode; SweepInterrupted is never skipped.
  std::string on_config_error = "raise";
  /// A journal of an earlier, interrupted run of this same sweep (docs/options.md#resume): the
  /// configs it holds complete (every measured run finished, not failed) are taken from it, only
  /// the others are measured, and the result equals one uninterrupted sweep. The journal must
  /// come from the same session name, configs and measurement options, else profile() throws
  /// InvalidArgument naming the difference. Empty: measure everything.
  std::string resume;
  /// Tool "ncu": how long one re-run of the program measures, in seconds (> 0), before it ends at
  /// the next config boundary and its part is journaled; the next part runs in a new re-run.
  /// Each part runs at least nine times the measured start-up cost of a re-run (ncu and the
  /// program starting, the report imported), so start-ups cost at most a tenth of the sweep.
  double ncu_part_seconds = 60;
  /// Sharding a sweep over processes (docs/scale-out.md): "" (default) measures every config;
  /// "auto" takes this process's rank from the launcher that started it (torchrun, Slurm, MPI:
  /// RANK/WORLD_SIZE/LOCAL_RANK, SLURM_PROCID/SLURM_NTASKS/SLURM_LOCALID,
  /// OMPI_COMM_WORLD_RANK/SIZE/LOCAL_RANK, PMI_RANK/PMI_SIZE/MPI_LOCALRANKID; none: the whole
  /// sweep); "i/n" sets share i of n by hand. A sharded process measures its share on the GPU
  /// of its local rank, names its files "rank<i>-...", and holds a lock on that GPU while it
  /// measures, so that ranks sharing a GPU take turns; `kscope merge` joins the shares.
  std::string shard;
  /// With `shard`: a result or journal of an earlier run of the sweep whose per-config times
  /// balance the shares; empty: configs interleaved (config c to rank c mod n).
  std::string shard_balance;

  /// Command that starts this program again, for the tools that re-execute it under an external
  /// profiler ("ncu", "sanitizer"); element 0 is the executable. Empty: this process's own
  /// executable (/proc/self/exe) with the arguments it was started with (/proc/self/cmdline).
  /// The Python front sets it to sys.executable + sys.argv. The re-executed program must call
  /// kscope::profile the same way again (docs/tools/ncu.md, "re-execution protocol").
  std::vector<std::string> reexec_argv;
  /// How error messages name the profiling call, as in the reference's "Invalid value ['x'] for
  /// 'metrics' parameter for kscope::profile()."; the Python front sets "kscope.analyze.kernel()".
  std::string call_name = "kscope::profile()";
  /// Non-empty when this program cannot be re-executed (a notebook, `python -c`, an embedded
  /// interpreter): the text says why. The re-executing tools then fail before any work with this
  /// reason and name tool "cupti" as the in-process alternative.
  std::string reexec_unavailable;

  /// Thermal control: pauses between runs that let the GPU cool.
  ThermalOptions thermal;

  /// Where printed text goes. Empty: standard output.
  LogSink log;
  /// Receives warnings (one call per warning, text without prefix). Empty: warnings are printed
  /// through `log` as "[kscope] warning: ..." at INFO and above.
  std::function<void(std::string_view)> on_warning;
  /// Whether the output is a terminal (progress redrawn in place). nullopt: isatty(stdout) when
  /// `log` is empty, false otherwise.
  std::optional<bool> interactive;
  /// Receives the sweep's progress (at INFO and above) instead of the printed progress line: at
  /// each config's start, at most every 100 ms while runs finish, and once finished.
  ProgressFn on_progress;

  /// Throws kscope::InvalidArgument (bad values) or kscope::NotSupportedError (valid values the
  /// chosen tool cannot honour). Called by kscope::profile before any GPU work.
  void validate() const;
};

/// The allowed values of each string option, in the order the error messages list them.
[[nodiscard]] const std::vector<std::string>& allowed_values(std::string_view option);

}  // namespace kscope
