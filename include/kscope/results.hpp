#pragma once
/// @file results.hpp
/// kscope::Results: what a profiling session measured. The raw table has one row per
/// (annotation, metric, config, run); the processed table one row per (annotation, metric,
/// config) with statistics, in the column order of nsight-python's processed DataFrame.
/// docs/output-schema.md documents every column and the JSON file.

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "kscope/config.hpp"
#include "kscope/options.hpp"
#include "kscope/timeline.hpp"

namespace kscope {

/// Version of the JSON result and journal format (docs/output-schema.md).
inline constexpr const char* kSchemaVersion = "1.0";

/// Where and with what the results were measured.
struct Metadata {
  std::string gpu;                 ///< device name, e.g. "NVIDIA H200"
  int device = 0;                  ///< CUDA ordinal
  std::string pci_bus_id;          ///< e.g. "0000:00:06.0"
  std::string uuid;                ///< the GPU's UUID, "GPU-6a5f..." (as nvidia-smi -L prints it)
  int compute_capability = 0;      ///< major * 10 + minor
  int sm_count = 0;                ///< multiprocessors
  long long l2_cache_bytes = 0;    ///< L2 size
  long long compute_clock = 0;     ///< peak SM clock, kHz (ComputeClock column)
  long long memory_clock = 0;      ///< peak memory clock, kHz (MemoryClock column)
  int driver_version = 0;          ///< CUDA driver API version, e.g. 13000
  int runtime_version = 0;         ///< CUDA runtime version kscope was built with
  std::string host;                ///< host name
  std::string kscope_version;      ///< kscope version
  std::string tool;                ///< tool that measured ("cupti", "ncu", ...)
  std::string tool_version;        ///< its version
  /// What made the gpu__time_duration.sum values (docs/tools/cupti.md#durations): "activity"
  /// (CUPTI kernel activity records), "profiler" (the CUPTI Range Profiler, ncu's counter),
  /// "events" (CUDA events around each region), "ncu" (tool ncu's report), "ncu import"
  /// (kscope::import_ncu); "" when the sweep measured no duration, or for a file written before
  /// kscope recorded it. compare and merge warn when two sides differ.
  std::string duration_definition;
  std::string started_at;          ///< session start, ISO 8601 UTC
  double wall_seconds = 0;         ///< session wall time
  int shard_index = 0;             ///< Options::shard: this process's rank (0 when not sharded)
  int shard_count = 1;             ///< ranks the sweep was sharded over (1: not sharded)
};

/// One measured value: one (annotation, metric, config, run).
struct RawRow {
  std::string annotation;
  double value = 0;                 ///< NaN for a failed run
  std::string metric;
  std::string kernel;               ///< kernel name; "a|b" when combined; "range" in range replay
  std::optional<std::string> unit;  ///< nullopt: no unit (derived metric without one)
  std::size_t config = 0;           ///< index into Results::configs()
  std::size_t run = 0;              ///< run index within the config
  /// Info collectors' values for this row, one per Results::info_columns() (empty without
  /// collectors); the column of each is named after its collector.
  std::vector<InfoValue> info{};
};

/// NVML clock-event reasons that mean the GPU slowed down for power or heat: SwPowerCap 0x4,
/// HwSlowdown 0x8, SwThermalSlowdown 0x20, HwThermalSlowdown 0x40, HwPowerBrakeSlowdown 0x80.
/// (The other bits: 0x1 GPU idle, 0x2 applications clocks setting, 0x10 sync boost, 0x100
/// display clock setting.)
inline constexpr std::uint64_t kSlowdownReasons = 0x4 | 0x8 | 0x20 | 0x40 | 0x80;

/// The state of the profiled GPU at one instant, read through NVML. A field is nullopt when the
/// GPU or driver does not report it (docs/telemetry.md). Per-run readings come from a sampler
/// that reads the GPU every 20 ms; `age_ms` says how old the reading was at the run boundary.
struct TelemetrySample {
  std::optional<int> sm_clock_mhz;       ///< current SM clock, MHz
  std::optional<int> memory_clock_mhz;   ///< current memory clock, MHz
  std::optional<int> temperature_c;      ///< GPU die temperature, degC
  std::optional<int> headroom_c;         ///< thermal headroom: degC left before thermal slowdown
  std::optional<double> power_w;         ///< board power draw, W (NVML averages it over a short window)
  std::optional<std::uint64_t> clock_event_reasons;  ///< NVML clock-event reasons bitmask
  /// How long before the run began ("before") or ended ("after") the reading was taken, ms;
  /// nullopt for a reading not tied to a run (or a file written before kscope recorded it).
  std::optional<double> age_ms;
};

/// Telemetry of one measured run: the GPU's latest reading just before the run (after the
/// thermal guard, before the cache flush) and just after it (once the device is synchronised).
/// Runs shorter than the sampling period share readings (see TelemetrySample::age_ms). Warm-up
/// runs have none.
struct RunTelemetry {
  std::size_t config = 0;                ///< index into Results::configs()
  std::size_t run = 0;                   ///< run index within the config
  int device = 0;                        ///< CUDA ordinal read
  std::optional<TelemetrySample> before; ///< nullopt: the GPU could not be read (or not yet)
  std::optional<TelemetrySample> after;  ///< nullopt: could not be read, or the run failed
  double cooling_wait_s = 0;             ///< seconds thermal control paused right before the run
};

/// Block or thread index of a CUDA launch (blockIdx, threadIdx).
struct Dim3 {
  std::uint32_t x = 0;
  std::uint32_t y = 0;
  std::uint32_t z = 0;
  friend bool operator==(const Dim3& a, const Dim3& b) {
    return a.x == b.x && a.y == b.y && a.z == b.z;
  }
};

/// One problem compute-sanitizer found (tool "sanitizer", kscope::sanitize; see
/// docs/tools/sanitizer.md). Optional fields are nullopt, strings empty, when the check does not
/// report them (racecheck reports no thread; leaks no kernel).
struct Finding {
  std::string check;        ///< "memcheck", "racecheck", "initcheck" or "synccheck"
  std::string kind;         ///< what happened, as compute-sanitizer words it: "Invalid __global__
                            ///< write of size 4 bytes", "Race condition", "Leaked 1024 bytes", ...
  std::string category;     ///< compute-sanitizer's record kind: "Precise", "Analysis", "Leak",
                            ///< ...; "ApiError": a CUDA API call that failed (sanitizer.md)
  std::string severity;     ///< compute-sanitizer's level: "Error" or "Warning"
  std::string kernel;       ///< the launched kernel (demangled base name); "" for leaks, ApiErrors
  std::string function;     ///< device function of the access (the kernel or a function it calls);
                            ///< an ApiError: the CUDA API call that failed
  std::optional<std::uint64_t> pc;  ///< offset of the access in `function`
  std::optional<Dim3> block;        ///< blockIdx of the thread that made the access
  std::optional<Dim3> thread;       ///< threadIdx of that thread
  std::optional<std::uint64_t> address;  ///< accessed (leaked) address
  std::optional<std::uint64_t> size;     ///< access (leak) size, bytes
  std::string file;         ///< source file of the access; needs a build with -lineinfo
  std::optional<int> line;  ///< line in `file`
  std::string detail;       ///< e.g. "out of bounds"; racecheck: the racing accesses
  std::size_t count = 1;    ///< occurrences this record stands for (racecheck: hazards)
  /// Host stack, innermost frame first, "function (module+0xoffset)": of the kernel launch, or of
  /// the allocation for a leak.
  std::vector<std::string> host_stack;
  std::string annotation;   ///< annotation the kernel was launched in ("" when none)
  std::optional<std::size_t> config;  ///< index into Results::configs(); nullopt when unknown
  std::optional<std::size_t> run;     ///< run of that config; nullopt when unknown
  /// How annotation, config and run were found: "annotation" (launched inside `annotation`),
  /// "outside" (launched in that run outside any annotation), "run" (in that run, annotation not
  /// determined because the program ended early, or an ApiError after an error in a kernel of
  /// that run), "session" (a leak: allocated during that run
  /// and still allocated when the session ended), "unattributed" (found when the whole sweep was
  /// checked, but not again when each config was checked alone).
  std::string attribution;
};

/// A config whose benchmark threw while Options::on_config_error was "skip": it has no values
/// (its processed rows carry the Error column, docs/output-schema.md) and a resumed sweep
/// measures it again.
struct ConfigFailure {
  std::size_t config = 0;  ///< index into Results::configs()
  std::size_t run = 0;     ///< the run that threw (warm-up or measured, see `warmup`)
  bool warmup = false;     ///< the run that threw was a warm-up run
  std::string type;        ///< the exception's type name ("std::runtime_error", "ValueError")
  std::string message;     ///< its text (what())
};

/// "ValueError: bad size (config 3, measured run 2)": the Error column's text.
[[nodiscard]] std::string describe(const ConfigFailure& failure);

/// Statistics of one (annotation, metric, config).
struct ProcessedRow {
  std::string annotation;
  std::string metric;
  std::size_t config = 0;          ///< index into Results::configs()
  double avg = 0;                  ///< AvgValue (divided by the baseline when normalised)
  double stddev = 0;               ///< StdDev, ddof 1 (NaN for one run)
  double min = 0;                  ///< MinValue
  double max = 0;                  ///< MaxValue
  std::size_t num_runs = 0;        ///< NumRuns: runs with a value (not NaN)
  std::string kernel;              ///< Kernel (first run's)
  std::optional<std::string> unit; ///< Unit
  // Telemetry of the config's runs (the same for every row of the config; NaN without
  // telemetry). Clock, temperature and power come from the readings after each run.
  double clock_mhz_min = std::numeric_limits<double>::quiet_NaN();  ///< ClockMHz_Min: lowest SM clock, MHz
  double temp_c_max = std::numeric_limits<double>::quiet_NaN();     ///< TempC_Max: highest die temperature, degC
  double power_w_avg = std::numeric_limits<double>::quiet_NaN();    ///< PowerW_Avg: mean power draw, W
  double throttled = std::numeric_limits<double>::quiet_NaN();      ///< Throttled: fraction of runs with a kSlowdownReasons bit set before or after
  double median = std::numeric_limits<double>::quiet_NaN();  ///< Median of the runs, before normalising
  double q1 = std::numeric_limits<double>::quiet_NaN();      ///< Q1: 25 % quantile (linear), before normalising
  double q3 = std::numeric_limits<double>::quiet_NaN();      ///< Q3: 75 % quantile (linear), before normalising
  /// AvgValue - t(0.975, NumRuns - 1) StdDev / sqrt(NumRuns) (Student's t, not nsight-python's
  /// 1.96), before normalising
  double ci95_lower = 0;
  double ci95_upper = 0;           ///< AvgValue + t(0.975, NumRuns - 1) StdDev / sqrt(NumRuns)
  double rel_stddev_pct = 0;       ///< 100 StdDev / |mean|; NaN when undefined
  std::optional<bool> stable;      ///< RelativeStdDevPct < 2; nullopt when undefined
  std::optional<std::string> normalized;      ///< baseline annotation; nullopt: not normalised
  std::optional<double> normalization_value;  ///< the baseline's AvgValue
  double geomean = 0;              ///< geometric mean of AvgValue over the annotation's configs
  /// Info collectors' columns, one per processed_info_columns(Results::info_columns()): the
  /// group's first value, or <name>_Avg/_Std/_Min/_Max of an aggregated collector (placed after
  /// Q3 in CSV and DataFrame).
  std::vector<InfoValue> info{};
  /// Error: describe() of the config's ConfigFailure; nullopt for a measured config. The column
  /// exists in CSV and DataFrame only when some config failed.
  std::optional<std::string> error;
  /// StopReason: why the config stopped taking runs under Options::adaptive ("target",
  /// "max_runs", "time_budget", "noise_floor", "no_values"); empty with a fixed run count.
  std::string stop_reason;
};

/// How one config ended under Options::adaptive (Results::Data::stops, the journal's "stop"
/// lines, the JSON result's "stops").
struct ConfigStop {
  std::size_t config = 0;   ///< index into Results::configs()
  std::size_t runs = 0;     ///< measured runs it took
  std::string reason;       ///< "target", "max_runs", "time_budget", "noise_floor", "no_values"
  double rel_ci = std::numeric_limits<double>::quiet_NaN();  ///< widest CI95 half-width / |mean| at the stop
  double seconds = 0;       ///< wall time of its measured runs
};

class Results;

/// Options of Results::write.
struct WriteOptions {
  /// A second result (the baseline) to compare with: the html and md formats add a table of
  /// both means and their ratio per (annotation, metric, config). Null: no comparison. Set with
  /// another format, Results::write throws InvalidArgument naming the formats that compare.
  const Results* compare = nullptr;
  /// The table format with ANSI colours, for a terminal: the header bold, an unstable row's
  /// Stable cell and an incomplete result's note yellow. Other formats ignore it. `kscope show`
  /// sets it by the command's colour rule (docs/cli.md, "Colour").
  bool colour = false;
  /// The html and md formats' options table with the absolute paths as they were
  /// (output_prefix, resume, shard_balance, reexec_argv). False: each absolute path is shown as
  /// ".../<its last part>", so a shared report does not tell where files were on the machine
  /// that measured; relative paths are shown as they are.
  bool full_paths = false;
};

/// One output format of Results::write (docs/outputs.md).
struct OutputFormat {
  std::string name;         ///< "table", "csv", "raw-csv", "findings-csv", "json", "parquet", "trace", "html", "md"
  std::string extension;    ///< file name ending, with the dot: ".json"
  std::string description;  ///< one line
};

/// Every registered output format, in the order `kscope show --help` lists them.
[[nodiscard]] std::vector<OutputFormat> output_formats();

/**
 * The outcome of kscope::profile (or of loading a saved result).
 *
 * @code
 *   auto r = kscope::profile("vadd", cs, fn, opt);
 *   r.print(std::cout);
 *   r.write_json("vadd.json");
 *   auto again = kscope::Results::load("vadd.json");
 * @endcode
 */
class Results {
 public:
  /// Everything a Results holds; filled by the engine or by load().
  struct Data {
    std::string name;                     ///< session name
    int id = 0;                           ///< per-name call counter within the process
    Options options;                      ///< options of the session (callbacks may be empty)
    std::vector<std::string> parameters;  ///< parameter names (config value order)
    std::vector<Config> configs;          ///< configs, index = position
    std::vector<RawRow> raw;              ///< raw table
    std::vector<ProcessedRow> processed;  ///< processed table
    std::vector<RunTelemetry> telemetry;  ///< one entry per measured run (empty without NVML)
    std::vector<Finding> findings;        ///< tool "sanitizer": what it found (empty: clean)
    std::vector<ConfigFailure> failures;  ///< configs that threw with on_config_error "skip"
    std::vector<ConfigStop> stops;        ///< Options::adaptive: how each config ended
    std::vector<InfoColumn> info_columns;  ///< one per info collector (Options::info_collectors)
    Timeline timeline;                    ///< host phases and kernel times (empty in older files)
    Metadata metadata;                    ///< environment
    std::string journal_path;             ///< journal written while measuring ("" if none)
    bool complete = true;                 ///< false when loaded from an unfinished journal
    /// The session checked the program instead of measuring it (kscope::sanitize): its findings
    /// are its result, even none, and the writers show them in place of the processed table.
    bool checked = false;
    /// load(): what was skipped, one text each (a journal's malformed lines); empty otherwise.
    std::vector<std::string> load_warnings;
  };

  Results() = default;
  explicit Results(Data data) : d_(std::move(data)) {}

  [[nodiscard]] const std::string& name() const { return d_.name; }
  [[nodiscard]] int id() const { return d_.id; }
  [[nodiscard]] const Options& options() const { return d_.options; }
  [[nodiscard]] const std::vector<std::string>& parameters() const { return d_.parameters; }
  [[nodiscard]] const std::vector<Config>& configs() const { return d_.configs; }
  [[nodiscard]] const std::vector<RawRow>& raw() const { return d_.raw; }
  [[nodiscard]] const std::vector<ProcessedRow>& processed() const { return d_.processed; }
  [[nodiscard]] const std::vector<RunTelemetry>& telemetry() const { return d_.telemetry; }
  /// Options::adaptive: how each config ended (empty with a fixed run count).
  [[nodiscard]] const std::vector<ConfigStop>& stops() const { return d_.stops; }
  /// The info collectors' columns (docs/info-collectors.md); empty without collectors.
  [[nodiscard]] const std::vector<InfoColumn>& info_columns() const { return d_.info_columns; }
  /// When the session's phases and kernels happened (docs/output-schema.md); empty when the file
  /// was saved before kscope recorded it.
  [[nodiscard]] const Timeline& timeline() const { return d_.timeline; }
  /// Tool "sanitizer": every problem compute-sanitizer found, in the order found.
  [[nodiscard]] const std::vector<Finding>& findings() const { return d_.findings; }
  /// The configs whose benchmark threw with on_config_error "skip", in sweep order.
  [[nodiscard]] const std::vector<ConfigFailure>& failed_configs() const { return d_.failures; }
  /// True when nothing was found (no findings). Always true for the measuring tools.
  [[nodiscard]] bool ok() const { return d_.findings.empty(); }
  [[nodiscard]] const Metadata& metadata() const { return d_.metadata; }
  [[nodiscard]] const std::string& journal_path() const { return d_.journal_path; }
  [[nodiscard]] bool complete() const { return d_.complete; }
  /// Data::checked: a check's result, whose findings are the result.
  [[nodiscard]] bool checked() const { return d_.checked; }
  /// What load() skipped: "journal '<path>': line 7 skipped: at /runs/0/config: expected ...",
  /// one text per malformed journal line (a cut last line is not one). Empty when nothing was.
  [[nodiscard]] const std::vector<std::string>& load_warnings() const { return d_.load_warnings; }
  [[nodiscard]] const Data& data() const { return d_; }

  /// Processed rows of one metric (all annotations and configs), in table order.
  [[nodiscard]] std::vector<ProcessedRow> rows(const std::string& metric) const;

  /// Writes the result in `format` (one of output_formats(): "table", "csv", "raw-csv",
  /// "findings-csv", "json", "parquet" (binary), "trace", "html", "md"; docs/outputs.md). Throws
  /// InvalidArgument for an unknown format, naming the known ones.
  void write(const std::string& format, std::ostream& out, const WriteOptions& options = {}) const;
  /// The same into the file `path` (created or replaced); kscope::Error when it cannot be written.
  void write(const std::string& format, const std::string& path,
             const WriteOptions& options = {}) const;
  /// Aligned human-readable processed table with a header naming GPU, host and tool
  /// (write("table", out)).
  void print(std::ostream& out) const;
  /// The processed table (a sanitizer session's findings) as an HTML fragment for a notebook:
  /// a <div class="kscope-results"> with a caption (name, id, GPU, host), the table with every
  /// text escaped, and the configs that failed. `max_rows` > 0: only the first max_rows rows,
  /// then a line saying how many were left out. Python's ProfileResults._repr_html_.
  [[nodiscard]] std::string to_html_table(std::size_t max_rows = 0) const;
  /// Writes `<prefix>profiled_data-<name>-<id>.csv` (raw) and
  /// `<prefix>processed_data-<name>-<id>.csv` (processed); returns the two paths. Results of
  /// tool "sanitizer" (or with findings) also get `<prefix>findings-<name>-<id>.csv`, the third
  /// path.
  std::vector<std::string> write_csv(const std::string& prefix) const;
  /// Writes the self-describing JSON document (schema in docs/output-schema.md;
  /// write("json", path)).
  void write_json(const std::string& path) const;
  /// The JSON document as text.
  [[nodiscard]] std::string to_json() const;
  /// Loads a JSON file written by write_json (from C++ or Python), a Parquet file written by
  /// write("parquet", ...) (told by its first bytes, whatever its name), or a journal (.jsonl)
  /// left by a session, finished or not. Throws kscope::Error with the path and the reason.
  [[nodiscard]] static Results load(const std::string& path);

 private:
  Data d_;
};

}  // namespace kscope
