#pragma once
// The processed table as text cells, shared by the console table, markdown and HTML: one header
// and one row per processed row, numbers with six significant digits ("-" for none).

#include <cstddef>
#include <string>
#include <vector>

#include "kscope/results.hpp"

namespace kscope::report {

struct Cells {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  /// Columns [first_number, first_number + numbers) hold numbers (right-aligned).
  std::size_t first_number = 0;
  std::size_t numbers = 0;
};

/// Annotation, <parameters...>, Metric, Unit, Avg, StdDev, Min, Max, Runs, RSD%, Stable, and
/// RelativeTo (normalised results) and Throttled (when any run slowed down) when they apply.
[[nodiscard]] Cells processed_cells(const Results& results);

/// Where and with what the result was measured, as (name, value) pairs: GPU, driver, clocks,
/// host, kscope and tool versions, start and wall time.
[[nodiscard]] std::vector<std::pair<std::string, std::string>> metadata_cells(const Results& results);

/// The GPU's name, or "unknown GPU" when the result does not say.
[[nodiscard]] std::string gpu_label(const Metadata& metadata);

/// The session's options as (name, value) pairs, values as JSON text; with `full_paths` false
/// the absolute paths among them as ".../<last part>" (WriteOptions::full_paths).
[[nodiscard]] std::vector<std::pair<std::string, std::string>> options_cells(const Results& results,
                                                                            bool full_paths);

/// `path` as the reports show it: an absolute path as ".../<its last part>" (a trailing "/"
/// kept), anything else unchanged.
[[nodiscard]] std::string local_path(const std::string& path);

}  // namespace kscope::report
