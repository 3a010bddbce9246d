#pragma once
// The processed table's columns, each described once: its name, the value it shows, what kind
// of value that is, when the column appears, who makes the value and how a JSON row carries it.
// The CSV writer, the console table's cells (HTML and markdown share them), the JSON codec,
// merge and the Python DataFrame iterate processed_columns(), so the column order is written
// here and nowhere else (docs/output-schema.md lists it; tests/python/test_columns_agree.py
// checks that the two agree). A new column is an entry here, plus its field in ProcessedRow.

#include <cstddef>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "kscope/results.hpp"

namespace kscope {

/// When a column is in the table.
enum class ColumnShown {
  kAlways,
  kNormalized,  ///< some row is normalised (Options::normalize_against)
  kFailed,      ///< some config failed (Options::on_config_error "skip")
  kAdaptive,    ///< some row has a StopReason (runs="auto")
};

/// How a cell without a value is written. Text columns without a value are empty in CSV and
/// null in JSON (or absent, ColumnJson::kWhenSet); in Python they are:
enum class ColumnMissing {
  kNever,  ///< always has a value (an empty std::string is a value)
  kNone,   ///< None (for a std::string: when it is empty)
  kNaN,    ///< NaN, as nsight-python writes a missing Unit
  kFalse,  ///< False everywhere: "False" in CSV, false in JSON (Normalized)
};

/// Who makes the value.
enum class ColumnSource {
  kTable,   ///< made with the table: the raw rows' statistics (aggregate), a failure's Error
  kConfig,  ///< the config's own (telemetry, info collectors, stop): merge copies it over
  kResult,  ///< the result's metadata, the same in every row
};

/// How a row of the JSON result (and journal) carries the column.
enum class ColumnJson {
  kRequired,  ///< always written; reading fails without it
  kOptional,  ///< always written; absent in older files (the value stays the default)
  kWhenSet,   ///< written only when the row has a value
  kNever,     ///< not per row (the metadata is written once)
};

/// The config's parameters, one column each (CSV and DataFrame); a JSON row has "config" here.
struct ParameterColumns {};
/// The info collectors' columns, processed_info_columns(Results::info_columns()); a JSON row
/// has them as one "info" object after the columns every row has.
struct InfoColumns {};

/// Where a column's value is: a member of the row, of the result's metadata, or a group.
using ColumnField =
    std::variant<std::string ProcessedRow::*, double ProcessedRow::*, std::size_t ProcessedRow::*,
                 std::optional<std::string> ProcessedRow::*, std::optional<bool> ProcessedRow::*,
                 std::optional<double> ProcessedRow::*, std::string Metadata::*,
                 long long Metadata::*, ParameterColumns, InfoColumns>;

struct ProcessedColumn {
  const char* name;
  ColumnField field;
  ColumnShown shown = ColumnShown::kAlways;
  ColumnMissing missing = ColumnMissing::kNever;
  ColumnSource source = ColumnSource::kTable;
  ColumnJson json = ColumnJson::kRequired;
};

/// Every processed column, in the order of the CSV file and the DataFrame.
[[nodiscard]] const std::vector<ProcessedColumn>& processed_columns();

/// The column called `name`; throws std::logic_error for a name the table does not have.
[[nodiscard]] const ProcessedColumn& processed_column(const std::string& name);

/// Whether a column shown `when` is in the processed table of `results`.
[[nodiscard]] bool is_shown(ColumnShown when, const Results& results);
/// Whether `column` is in the processed table of `results`.
[[nodiscard]] inline bool is_shown(const ProcessedColumn& column, const Results& results) {
  return is_shown(column.shown, results);
}

/// Copies the columns of ColumnSource::kConfig (telemetry, info collectors, stop) from `from`
/// to `to`: what a row rebuilt from raw rows (merge) takes from the row it replaces.
void copy_config_columns(const ProcessedRow& from, ProcessedRow* to);

}  // namespace kscope
