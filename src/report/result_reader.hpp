#pragma once
// The JSON result read streamed (issue 37): member by member and row by row through a buffer
// (streamed_json.hpp), each row parsed by a JsonTape and read by the codec's readers, so that a
// result of a million rows reads in seconds and in little more memory than its tables. The tables
// a command does not need are skipped unread. What it cannot read (a file kscope did not write in
// its layout, anything malformed) it leaves to the tree's reader in Results::load, whose errors
// name the file, the JSON path and the reason.

#include <optional>
#include <string>

#include "kscope/results.hpp"

namespace kscope::report {

/// The big tables of a result a reader needs; the others are skipped unread (and unchecked).
struct ResultTables {
  bool raw = true;
  bool processed = true;
  bool telemetry = true;
  bool timeline = true;
};

/// What kscope::compare reads: the raw runs (its tests), not the statistics of the processed table.
inline constexpr ResultTables kCompareTables{/*raw=*/true, /*processed=*/false,
                                             /*telemetry=*/false, /*timeline=*/false};

/// The processed table only (with the findings, failed configs and stops, which are always read).
inline constexpr ResultTables kProcessedTable{/*raw=*/false, /*processed=*/true,
                                              /*telemetry=*/false, /*timeline=*/false};

/// Reads the result file `path` (a JSON result in the layout kscope writes: the header's members
/// before "configs", "info_columns" before the rows), with only `tables` of the big tables.
/// nullopt when it cannot: the file is not there, not JSON, not in that layout, or a value in it
/// is one the readers refuse; Results::load then reads it as a tree and says why.
[[nodiscard]] std::optional<Results::Data> read_result_streamed(const std::string& path,
                                                                const ResultTables& tables);

/// Reads the result file `path` as one tree (nlohmann's): every value checked, every error in
/// kscope's words ("'<path>' does not follow the kscope result schema (docs/output-schema.md): at
/// /raw/3/config: expected ..."). Memory: several times the file's size.
[[nodiscard]] Results::Data read_result_tree(const std::string& path);

/// Results::load with only `tables` of a JSON result's big tables (a journal is read whole):
/// what `kscope show`, `compare` and `merge` read (a writer's Writer::reads).
[[nodiscard]] Results load_results(const std::string& path, const ResultTables& tables);

}  // namespace kscope::report
