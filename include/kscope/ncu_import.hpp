#pragma once
/// @file ncu_import.hpp
/// kscope::import_ncu: turn a report made by Nsight Compute elsewhere (a .ncu-rep, or its raw
/// page exported as CSV) into kscope Results, so that kscope's tables, JSON and plots work on it.
/// Python: kscope.load_ncu(path). Command line: kscope import-ncu REPORT [-o results.json].

#include <string>
#include <vector>

#include "kscope/options.hpp"
#include "kscope/results.hpp"

namespace kscope {

/// What kscope::import_ncu reads.
struct NcuImportOptions {
  /// Metrics to import, by ncu name (e.g. "gpu__time_duration.sum"). Empty: every numeric
  /// metric of the report except the descriptive families ncu adds to every raw page
  /// (device__attribute_*, launch__*, c2clink__*, numa__*, nvlink__*, profiler__*).
  std::vector<std::string> metrics;
  /// With empty `metrics`: import every numeric column, the descriptive families included.
  bool all_metrics = false;
  /// The ncu that exports a .ncu-rep; empty: KSCOPE_NCU, PATH, /usr/local/cuda/bin,
  /// /opt/nvidia/nsight-compute/<version>/. CSV input needs no ncu.
  std::string ncu;
  /// kDebug: also name the lines before the table's header row that were skipped (what
  /// `ncu --csv ./app > out.csv 2>&1` mixes in: the program's output, ==PROF== lines).
  Verbosity verbosity = Verbosity::kInfo;
};

/**
 * Reads an ncu report: a `.ncu-rep` (exported with `ncu --import <path> --csv --page raw
 * --print-units base`) or a CSV of ncu's raw page (`ncu ... --csv --page raw`; the table starts
 * at its header row, and what `ncu --csv ./app > out.csv 2>&1` puts before it, the program's
 * output and tool lines such as "==PROF==", is skipped). Each profiled kernel (each range in range replay) becomes one
 * config of the Results, whose parameters are ncu's result "ID" and, when present, "Block Size"
 * and "Grid Size"; its metrics become raw rows (run 0) in base units (ns, byte, per second:
 * values ncu printed scaled, "us" or "Mbyte", are converted; a scale kscope does not know is a
 * kscope::Error), and the processed table has one row per
 * (kernel, metric). The Annotation column holds the kernel's NVTX ranges in ncu's
 * --nvtx-include grammar ("domain@range" for start/end ranges, "domain@outer/inner/" for a
 * push/pop stack, no "domain@" for the default domain, kscope's own annotations by their bare
 * name, several joined by " | "), or "-" outside any range. Kernel names are base names
 * ("vadd", not "vadd(const float *, ...)"). A report without kernels gives Results without
 * rows.
 *
 * @code
 *   auto r = kscope::import_ncu("run.ncu-rep", {{"gpu__time_duration.sum"}});
 *   r.print(std::cout);
 *   r.write_json("run.json");
 * @endcode
 *
 * Throws kscope::FileFormatError naming the file and line for malformed input (truncated,
 * no units row, an ID that is no whole number), kscope::InvalidArgument naming requested metrics the report lacks,
 * kscope::ToolError when ncu is needed and missing or fails.
 */
[[nodiscard]] Results import_ncu(const std::string& path, const NcuImportOptions& options = {});

}  // namespace kscope
