#pragma once
// ncu's raw page as CSV (`ncu --import <report> --csv --page raw --print-units base`): a header
// row, a units row, then one row per profiled result (a kernel, or a range in range replay).
// Leading columns describe the result (ID, process, NVTX state, kernel name, launch shape,
// device); the metrics follow, sorted by name. Values are read in base units (ns, byte) even when
// ncu printed them scaled.

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "collect/ncu/nvtx_cells.hpp"

namespace kscope::ncu {

/// A line before the header row that is not part of the table (program output, tool lines).
struct SkippedLine {
  std::size_t line = 0;  ///< 1-based
  std::string text;
};

/// One profiled result.
struct NcuResult {
  long long id = 0;                   ///< ncu's result ID (launch order)
  std::string kernel;                 ///< as ncu prints it (demangled, with parameters) or "range"
  int device = 0;
  std::string host;
  std::vector<NvtxRange> push_pop;    ///< bottom of the stack first
  std::vector<NvtxRange> start_end;
  std::vector<std::string> cells;     ///< every cell, by column index
  std::size_t line = 0;               ///< line in the CSV text
};

/// The most columns a raw page may have: ncu's full section set has a few thousand metrics. More
/// is no raw page (a fuzzed header of 3 MB made a table of 294 MB).
constexpr std::size_t kMaxNcuColumns = 16384;
/// The longest header row (bytes of its names): a few thousand names of ~50 bytes fit many times.
constexpr std::size_t kMaxNcuHeaderBytes = 1024 * 1024;

class NcuRawTable {
 public:
  [[nodiscard]] const std::vector<std::string>& columns() const { return columns_; }
  [[nodiscard]] const std::vector<NcuResult>& results() const { return results_; }
  [[nodiscard]] const std::string& source() const { return source_; }
  /// The lines before the header row: what `ncu --csv ./app > out.csv 2>&1` mixes in (the
  /// program's output, ==PROF== and ==WARNING== lines).
  [[nodiscard]] const std::vector<SkippedLine>& skipped() const { return skipped_; }

  /// Index of `name`, or -1 when the report has no such column.
  [[nodiscard]] long find_column(std::string_view name) const;
  /// The base unit of a column ("ns", "byte", "byte/second", "%"; "" for none) whatever ncu
  /// printed: a column ncu scaled ("us", "Mbyte") is converted (ncu_unit_scale.hpp).
  [[nodiscard]] const std::string& unit(std::size_t column) const { return units_.at(column); }
  /// The unit as ncu printed it in the units row.
  [[nodiscard]] const std::string& printed_unit(std::size_t column) const {
    return printed_units_.at(column);
  }
  /// Metric columns (everything after the descriptive leading columns), in report order.
  [[nodiscard]] std::vector<std::string> metric_columns() const;
  /// Numeric value of `column` in `result`, in unit(column): NaN for "n/a". Throws
  /// kscope::FileFormatError
  /// naming the result, column and text when the cell is not a number, and naming the column and
  /// its unit when ncu printed it in a scaled unit kscope cannot convert (never a wrong number).
  [[nodiscard]] double number(const NcuResult& result, std::size_t column) const;
  /// The value as text (for attributes such as device__attribute_display_name); "" if absent.
  [[nodiscard]] std::string text(const NcuResult& result, std::string_view column) const;

  /// Parses the text. The table starts at the first line whose first cell is ID; the lines
  /// before it are kept in skipped(). An empty text (or one with only tool lines) is a report
  /// with no results. Throws kscope::FileFormatError naming `source`, the line and what to do for a truncated file, a
  /// missing units row, rows whose cell count differs from the header, a missing leading column,
  /// a header of more than kMaxNcuColumns columns or kMaxNcuHeaderBytes bytes, a cell longer than kMaxCsvCellBytes and an ID
  /// that two rows share.
  [[nodiscard]] static NcuRawTable parse(std::string_view text, const std::string& source);

 private:
  std::string source_;
  std::vector<std::string> columns_;
  std::vector<std::string> units_;          ///< base units
  std::vector<std::string> printed_units_;  ///< the units row as it is
  std::vector<double> scales_;              ///< printed value * scale = base value; NaN: unknown
  std::unordered_map<std::string, std::size_t> index_;
  std::size_t first_metric_ = 0;
  std::vector<NcuResult> results_;
  std::vector<SkippedLine> skipped_;
};

}  // namespace kscope::ncu
