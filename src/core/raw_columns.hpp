#pragma once
// The raw table's columns, each described once: its name and where its value is. The raw CSV
// file and the Parquet file iterate raw_columns(), so the column order is written here and
// nowhere else (docs/output-schema.md lists it).

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/processed_columns.hpp"
#include "kscope/results.hpp"

namespace kscope {

/// Where a raw column's value is: a member of the row, of the result's metadata, or a group
/// (the info collectors' columns, raw_info_columns(); the config's parameters).
using RawField = std::variant<std::string RawRow::*, double RawRow::*,
                              std::optional<std::string> RawRow::*, std::string Metadata::*,
                              long long Metadata::*, InfoColumns, ParameterColumns>;

struct RawColumn {
  const char* name;
  RawField field;
};

/// Every raw column, in the order of the CSV file and the DataFrame: Annotation, Value, Metric,
/// Kernel, GPU, Host, ComputeClock, MemoryClock, Unit, <info collectors>, <parameters>.
[[nodiscard]] const std::vector<RawColumn>& raw_columns();

}  // namespace kscope
