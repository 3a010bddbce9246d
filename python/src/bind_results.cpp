// kscope::Results (raw and processed rows, metadata, configs) plus its file formats. The pandas
// DataFrames are built in Python (kscope/transformation.py): the processed one from
// processed_frame_columns, the engine's processed column table (core/processed_columns.hpp).

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cmath>
#include <sstream>
#include <type_traits>
#include <variant>

#include "bindings.hpp"
#include "core/processed_columns.hpp"
#include "kscope/merge.hpp"
#include "kscope/results.hpp"
#include "report/json_result.hpp"
#include "report/parquet_result.hpp"
#include "report/writer.hpp"

namespace kscope::python {
namespace {

// One column's values as Python objects; a missing one per ColumnMissing.
template <class T>
nb::object or_missing(const std::optional<T>& v, ColumnMissing missing) {
  if (v) return nb::cast(*v);
  if (missing == ColumnMissing::kFalse) return nb::cast(false);
  if (missing == ColumnMissing::kNaN) return nb::cast(std::nan(""));
  return nb::none();
}

using FrameColumn = nb::tuple;  // (name, kind, values)

// A column that is a member of the row, over `rows` (nothing for the groups and the metadata).
void add_row_column(const ProcessedColumn& c, const std::vector<ProcessedRow>& rows,
                    nb::list* out) {
  std::visit(
      [&](const auto& field) {
        using F = std::decay_t<decltype(field)>;
        nb::list values;
        const char* kind = nullptr;
        if constexpr (std::is_same_v<F, std::string ProcessedRow::*>) {
          for (const auto& p : rows) {
            const bool none = c.missing == ColumnMissing::kNone && (p.*field).empty();
            values.append(none ? nb::none() : nb::cast(p.*field));
          }
          kind = "list";
        } else if constexpr (std::is_same_v<F, double ProcessedRow::*>) {
          for (const auto& p : rows) values.append(p.*field);
          kind = "float";
        } else if constexpr (std::is_same_v<F, std::size_t ProcessedRow::*>) {
          for (const auto& p : rows) values.append(p.*field);
          kind = "int";
        } else if constexpr (std::is_same_v<F, std::optional<bool> ProcessedRow::*>) {
          for (const auto& p : rows) values.append(or_missing(p.*field, c.missing));
          kind = "boolean";
        } else if constexpr (std::is_same_v<F, std::optional<double> ProcessedRow::*>) {
          for (const auto& p : rows) values.append(or_missing(p.*field, ColumnMissing::kNaN));
          kind = "float";
        } else if constexpr (std::is_same_v<F, std::optional<std::string> ProcessedRow::*>) {
          // NaN-filled as nsight-python's Unit, or object elements.
          for (const auto& p : rows) values.append(or_missing(p.*field, c.missing));
          kind = c.missing == ColumnMissing::kNaN ? "list" : "object";
        }
        if (kind) out->append(nb::make_tuple(c.name, kind, values));
      },
      c.field);
}

// The processed table's columns in order, as (name, kind, values) tuples; kind says how
// kscope.transformation makes the DataFrame's column of the values: "float" (float64), "int"
// (int64), "boolean" (pandas' nullable boolean), "list" (as they are), "object" (object
// elements, then inferred) or "parameters" (values: each row's config; the parameter columns
// hold the configs' Python objects).
nb::list processed_frame_columns(const Results& r) {
  nb::list out;
  const auto& rows = r.processed();
  for (const auto& c : processed_columns()) {
    if (!is_shown(c, r)) continue;
    std::visit(
        [&](const auto& field) {
          using F = std::decay_t<decltype(field)>;
          nb::list values;
          if constexpr (std::is_same_v<F, ParameterColumns>) {
            for (const auto& p : rows) values.append(p.config);
            out.append(nb::make_tuple(c.name, "parameters", values));
          } else if constexpr (std::is_same_v<F, InfoColumns>) {
            const auto names = processed_info_columns(r.info_columns());
            std::vector<bool> numeric;  // aggregates: float64 even when all missing
            for (const auto& column : r.info_columns()) {
              numeric.insert(numeric.end(), column.aggregated ? 4 : 1, column.aggregated);
            }
            for (std::size_t i = 0; i < names.size(); ++i) {
              nb::list info;
              for (const auto& p : rows) {
                const InfoValue v = i < p.info.size() ? p.info[i] : InfoValue();
                info.append(numeric[i] && v.empty() ? nb::cast(std::nan("")) : nb::cast(v));
              }
              out.append(nb::make_tuple(names[i], numeric[i] ? "float" : "object", info));
            }
          } else if constexpr (std::is_same_v<F, std::string Metadata::*> ||
                               std::is_same_v<F, long long Metadata::*>) {
            for (std::size_t i = 0; i < rows.size(); ++i) values.append(r.metadata().*field);
            out.append(nb::make_tuple(
                c.name, std::is_same_v<F, std::string Metadata::*> ? "list" : "int", values));
          } else {
            add_row_column(c, rows, &out);
          }
        },
        c.field);
  }
  return out;
}

// The columns `names` of `rows` alone (aggregate_rows' output), as processed_frame_columns
// gives them; NormalizationValue only when some row is normalised.
nb::list row_frame_columns(const std::vector<ProcessedRow>& rows,
                           const std::vector<std::string>& names) {
  bool normalized = false;
  for (const auto& p : rows) normalized = normalized || p.normalized.has_value();
  nb::list out;
  for (const auto& name : names) {
    const ProcessedColumn& c = processed_column(name);
    if (c.shown == ColumnShown::kNormalized && !normalized) continue;
    add_row_column(c, rows, &out);
  }
  return out;
}

}  // namespace

void bind_results(nb::module_& m) {
  nb::class_<Metadata>(m, "Metadata", "Where and with what the results were measured.")
      .def(nb::init<>())
      .def_rw("gpu", &Metadata::gpu)
      .def_rw("device", &Metadata::device)
      .def_rw("pci_bus_id", &Metadata::pci_bus_id)
      .def_rw("uuid", &Metadata::uuid, "the GPU's UUID (\"GPU-...\", as nvidia-smi -L prints it)")
      .def_rw("shard_index", &Metadata::shard_index, "this process's rank (Options.shard)")
      .def_rw("shard_count", &Metadata::shard_count, "ranks the sweep was sharded over")
      .def_rw("compute_capability", &Metadata::compute_capability)
      .def_rw("sm_count", &Metadata::sm_count)
      .def_rw("l2_cache_bytes", &Metadata::l2_cache_bytes)
      .def_rw("compute_clock", &Metadata::compute_clock, "peak SM clock, kHz")
      .def_rw("memory_clock", &Metadata::memory_clock, "peak memory clock, kHz")
      .def_rw("driver_version", &Metadata::driver_version)
      .def_rw("runtime_version", &Metadata::runtime_version)
      .def_rw("host", &Metadata::host)
      .def_rw("kscope_version", &Metadata::kscope_version)
      .def_rw("tool", &Metadata::tool)
      .def_rw("tool_version", &Metadata::tool_version)
      .def_rw("duration_definition", &Metadata::duration_definition,
              "what made the durations: activity, profiler, events, ncu, ncu import (\"\": none)")
      .def_rw("started_at", &Metadata::started_at)
      .def_rw("wall_seconds", &Metadata::wall_seconds);

  nb::class_<RawRow>(m, "RawRow", "One measured value: one (annotation, metric, config, run).")
      .def(nb::init<>())
      .def_rw("annotation", &RawRow::annotation)
      .def_rw("value", &RawRow::value, "NaN for a failed run")
      .def_rw("metric", &RawRow::metric)
      .def_rw("kernel", &RawRow::kernel)
      .def_rw("unit", &RawRow::unit)
      .def_rw("config", &RawRow::config, "index into Results.configs")
      .def_rw("run", &RawRow::run)
      .def_rw("info", &RawRow::info, "info collectors' values, one per Results.info_columns");

  nb::class_<TelemetrySample>(m, "TelemetrySample",
                              "The profiled GPU at one instant (NVML); None: not reported.")
      .def(nb::init<>())
      .def_rw("sm_clock_mhz", &TelemetrySample::sm_clock_mhz)
      .def_rw("memory_clock_mhz", &TelemetrySample::memory_clock_mhz)
      .def_rw("temperature_c", &TelemetrySample::temperature_c)
      .def_rw("headroom_c", &TelemetrySample::headroom_c, "degC left before thermal slowdown")
      .def_rw("power_w", &TelemetrySample::power_w)
      .def_rw("clock_event_reasons", &TelemetrySample::clock_event_reasons, "NVML bitmask")
      .def_rw("age_ms", &TelemetrySample::age_ms,
              "how old the reading was when the run began (before) / ended (after), ms");

  nb::class_<ConfigStop>(m, "ConfigStop", "How one config ended under runs='auto'.")
      .def(nb::init<>())
      .def_rw("config", &ConfigStop::config, "index into Results.configs")
      .def_rw("runs", &ConfigStop::runs, "measured runs it took")
      .def_rw("reason", &ConfigStop::reason,
              "'target', 'max_runs', 'time_budget', 'noise_floor' or 'no_values'")
      .def_rw("rel_ci", &ConfigStop::rel_ci, "widest CI95 half-width / |mean| at the stop")
      .def_rw("seconds", &ConfigStop::seconds, "wall time of its measured runs");

  nb::class_<RunTelemetry>(m, "RunTelemetry",
                           "Telemetry of one measured run: readings before and after it.")
      .def(nb::init<>())
      .def_rw("config", &RunTelemetry::config)
      .def_rw("run", &RunTelemetry::run)
      .def_rw("device", &RunTelemetry::device)
      .def_rw("before", &RunTelemetry::before)
      .def_rw("after", &RunTelemetry::after)
      .def_rw("cooling_wait_s", &RunTelemetry::cooling_wait_s);

  nb::class_<ProcessedRow>(m, "ProcessedRow", "Statistics of one (annotation, metric, config).")
      .def(nb::init<>())
      .def_rw("annotation", &ProcessedRow::annotation)
      .def_rw("metric", &ProcessedRow::metric)
      .def_rw("config", &ProcessedRow::config, "index into Results.configs")
      .def_rw("avg", &ProcessedRow::avg)
      .def_rw("stddev", &ProcessedRow::stddev)
      .def_rw("min", &ProcessedRow::min)
      .def_rw("max", &ProcessedRow::max)
      .def_rw("num_runs", &ProcessedRow::num_runs)
      .def_rw("kernel", &ProcessedRow::kernel)
      .def_rw("unit", &ProcessedRow::unit)
      .def_rw("clock_mhz_min", &ProcessedRow::clock_mhz_min, "ClockMHz_Min (NaN without NVML)")
      .def_rw("temp_c_max", &ProcessedRow::temp_c_max, "TempC_Max (NaN without NVML)")
      .def_rw("power_w_avg", &ProcessedRow::power_w_avg, "PowerW_Avg (NaN without NVML)")
      .def_rw("throttled", &ProcessedRow::throttled, "Throttled: fraction of runs slowed down")
      .def_rw("median", &ProcessedRow::median, "Median of the runs")
      .def_rw("q1", &ProcessedRow::q1, "Q1: 25 % quantile of the runs")
      .def_rw("q3", &ProcessedRow::q3, "Q3: 75 % quantile of the runs")
      .def_rw("ci95_lower", &ProcessedRow::ci95_lower)
      .def_rw("ci95_upper", &ProcessedRow::ci95_upper)
      .def_rw("rel_stddev_pct", &ProcessedRow::rel_stddev_pct)
      .def_rw("stable", &ProcessedRow::stable)
      .def_rw("normalized", &ProcessedRow::normalized)
      .def_rw("normalization_value", &ProcessedRow::normalization_value)
      .def_rw("geomean", &ProcessedRow::geomean)
      .def_rw("stop_reason", &ProcessedRow::stop_reason,
              "runs='auto': why the config stopped ('' with a fixed run count)")
      .def_rw("info", &ProcessedRow::info,
              "info collectors' columns, one per processed_info_columns(Results.info_columns)")
      .def_rw("error", &ProcessedRow::error,
              "Error: why the config failed (on_config_error 'skip'); None when measured");

  nb::class_<ConfigFailure>(m, "ConfigFailure",
                            "A config whose benchmark raised with on_config_error 'skip'.")
      .def(nb::init<>())
      .def_rw("config", &ConfigFailure::config, "index into Results.configs")
      .def_rw("run", &ConfigFailure::run, "the run that raised")
      .def_rw("warmup", &ConfigFailure::warmup, "whether that run was a warm-up run")
      .def_rw("type", &ConfigFailure::type, "the exception's type name, e.g. 'ValueError'")
      .def_rw("message", &ConfigFailure::message, "the exception's text")
      .def("__str__", [](const ConfigFailure& f) { return describe(f); })
      .def("__repr__", [](const ConfigFailure& f) { return "<ConfigFailure " + describe(f) + ">"; });

  nb::class_<PhaseSpan>(m, "PhaseSpan", "One interval of the host side of a session (timeline).")
      .def_ro("phase", &PhaseSpan::phase)
      .def_ro("config", &PhaseSpan::config)
      .def_ro("run", &PhaseSpan::run)
      .def_ro("warmup", &PhaseSpan::warmup)
      .def_ro("pass_", &PhaseSpan::pass, "replay pass (0 without replay)")
      .def_ro("annotation", &PhaseSpan::annotation)
      .def_ro("start_ns", &PhaseSpan::start_ns, "host steady clock, ns")
      .def_ro("end_ns", &PhaseSpan::end_ns, "host steady clock, ns")
      .def_ro("part", &PhaseSpan::part, "index into Timeline.parts (0 in one process's)");
  nb::class_<KernelSpan>(m, "KernelSpan", "One kernel as the tool timed it on the GPU (timeline).")
      .def_ro("annotation", &KernelSpan::annotation)
      .def_ro("kernel", &KernelSpan::kernel)
      .def_ro("config", &KernelSpan::config)
      .def_ro("run", &KernelSpan::run)
      .def_ro("warmup", &KernelSpan::warmup)
      .def_ro("device", &KernelSpan::device)
      .def_ro("stream", &KernelSpan::stream)
      .def_ro("start_ns", &KernelSpan::start_ns, "on the host steady clock, ns")
      .def_ro("end_ns", &KernelSpan::end_ns, "on the host steady clock, ns")
      .def_ro("part", &KernelSpan::part, "index into Timeline.parts (0 in one process's)");
  nb::class_<Timeline>(m, "Timeline", "When the session's phases and kernels happened.")
      // Lists of spans, made from the timeline's packed ones.
      .def_prop_ro("phases", [](const Timeline& t) {
        return std::vector<PhaseSpan>(t.phases.begin(), t.phases.end());
      })
      .def_prop_ro("kernels", [](const Timeline& t) {
        return std::vector<KernelSpan>(t.kernels.begin(), t.kernels.end());
      })
      .def_ro("parts", &Timeline::parts,
              "a merge: the part (rank and file) each span's part names; empty for one process");
  nb::class_<OutputFormat>(m, "OutputFormat", "One output format of Results.write.")
      .def_ro("name", &OutputFormat::name)
      .def_ro("extension", &OutputFormat::extension)
      .def_ro("description", &OutputFormat::description);
  m.def("output_formats", &output_formats, "Every registered output format, in registry order.");
  m.def("processed_frame_columns", &processed_frame_columns, nb::arg("results"),
        "The processed table's columns in order, (name, kind, values) each, for the DataFrame.");
  m.def("row_frame_columns", &row_frame_columns, nb::arg("rows"), nb::arg("names"),
        "Columns `names` of processed rows, as processed_frame_columns gives them.");

  nb::class_<Results>(m, "Results", "The outcome of profile() or of loading a saved result.")
      .def_prop_ro("name", &Results::name)
      .def_prop_ro("id", &Results::id)
      .def_prop_ro("options", &Results::options)
      .def_prop_ro("parameters", &Results::parameters)
      .def_prop_ro("configs", &Results::configs)
      .def_prop_ro("raw", &Results::raw)
      .def_prop_ro("processed", &Results::processed)
      .def_prop_ro("telemetry", &Results::telemetry, "One RunTelemetry per measured run.")
      .def_prop_ro("stops", &Results::stops, "runs='auto': one ConfigStop per config.")
      .def_prop_ro("info_columns", &Results::info_columns,
                   "One InfoColumn per info collector (empty without collectors).")
      .def_prop_ro("metadata", &Results::metadata)
      .def_prop_ro("timeline", &Results::timeline,
                   "Host phases and kernel times (empty for files saved without them).")
      .def_prop_ro("journal_path", &Results::journal_path)
      .def_prop_ro("complete", &Results::complete)
      .def_prop_ro("checked", &Results::checked,
                   "A check's result (kscope.sanitize): its findings are the result, even none.")
      .def_prop_ro("failed_configs", &Results::failed_configs,
                   "The configs whose benchmark raised with on_config_error 'skip'.")
      .def_prop_ro("load_warnings", &Results::load_warnings,
                   "What load() skipped (a journal's malformed lines), one text each.")
      .def("rows", &Results::rows, nb::arg("metric"), "Processed rows of one metric.")
      .def(
          "table",
          [](const Results& r) {
            std::ostringstream out;
            r.print(out);
            return out.str();
          },
          "The aligned human-readable processed table (what Results::print writes).")
      .def("write_csv", &Results::write_csv, nb::arg("prefix"),
           "Writes <prefix>profiled_data-<name>-<id>.csv and processed_data-...csv; returns "
           "both paths.")
      .def(
          "write_json",
          [](const Results& r, const std::string& path, const std::vector<std::string>& values) {
            report::write_results_json(r, path, &values);
          },
          nb::arg("path"), nb::arg("config_values") = std::vector<std::string>{},
          "Writes the JSON document to `path`, streamed; `config_values`: the JSON text of the "
          "first configs' values (the Python objects) in place of the engine's.")
      .def(
          "write_parquet",
          [](const Results& r, const std::string& path, const std::vector<std::string>& values) {
            report::write_results_parquet(r, path, &values);
          },
          nb::arg("path"), nb::arg("config_values") = std::vector<std::string>{},
          "Writes the Parquet file to `path`; `config_values` as in write_json.")
      .def(
          "write",
          [](const Results& r, const std::string& format, const std::string& path,
             const Results* compare, bool full_paths) {
            WriteOptions o;
            o.compare = compare;
            o.full_paths = full_paths;
            r.write(format, path, o);
          },
          nb::arg("format"), nb::arg("path"), nb::arg("compare") = nb::none(),
          nb::arg("full_paths") = false,
          "Writes the result in one of output_formats() to `path`; `compare`: the baseline of "
          "the compare table (html, md); `full_paths`: WriteOptions::full_paths.")
      .def(
          "render",
          [](const Results& r, const std::string& format, const Results* compare,
             bool full_paths) {
            report::check_text(report::find_writer(format), "as text (render)");
            WriteOptions o;
            o.compare = compare;
            o.full_paths = full_paths;
            std::ostringstream out;
            r.write(format, out, o);
            return out.str();
          },
          nb::arg("format"), nb::arg("compare") = nb::none(), nb::arg("full_paths") = false,
          "The result in one of output_formats(), as text.")
      .def(
          "to_json",
          [](const Results& r, const std::vector<std::string>& values) {
            std::ostringstream out;
            report::write_results_json(r, out, &values);
            return out.str();
          },
          nb::arg("config_values") = std::vector<std::string>{},
          "The JSON document as text; `config_values` as in write_json.")
      .def("to_html_table", &Results::to_html_table, nb::arg("max_rows") = 0,
           "The processed table as an HTML fragment for a notebook; max_rows > 0: only the "
           "first rows, and a line saying how many were left out.")
      .def_static("load", &Results::load, nb::arg("path"),
                  "Loads a JSON or Parquet result (from C++ or Python) or a session journal (.jsonl).");
  m.def("parquet_config_values", &report::parquet_config_values, nb::arg("path"),
        "The JSON text of each config's values in a kscope Parquet file.");
  m.attr("SCHEMA_VERSION") = kSchemaVersion;
  m.attr("SLOWDOWN_REASONS") = kSlowdownReasons;

  m.def(
      "merge",
      [](const std::vector<Results>& parts, bool allow_overlap, bool allow_missing,
         std::vector<std::string> labels) {
        MergeOptions o;
        o.allow_overlap = allow_overlap;
        o.allow_missing = allow_missing;
        o.labels = std::move(labels);
        return merge(parts, o);
      },
      nb::arg("parts"), nb::arg("allow_overlap") = false, nb::arg("allow_missing") = false,
      nb::arg("labels") = std::vector<std::string>{},
      "Joins the shards of one sweep into one Results (kscope::merge).");
}

}  // namespace kscope::python
