#pragma once
// A small RFC 4180 CSV reader for ncu's raw page: quoted cells with doubled quotes, commas and
// newlines inside quotes, CRLF. Lines ncu prints among the CSV ("==PROF== ...", "==WARNING==
// ...") are skipped when they start a record.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kscope::ncu {

struct CsvRecord {
  std::vector<std::string> cells;
  std::size_t line = 0;  ///< 1-based line where the record starts
};

/// The longest cell read (bytes): ncu's longest are demangled kernel names and NVTX stacks, a few
/// KiB. A longer one is no raw page; reading it on would cost time and memory for nothing.
constexpr std::size_t kMaxCsvCellBytes = 64 * 1024;

/// All records of `text`, whose first line is line `first_line` of `source`. Blank lines and tool
/// lines are skipped. Throws kscope::FileFormatError naming `source` and the line when a quoted
/// cell is not closed (a truncated file) or a cell is longer than kMaxCsvCellBytes.
[[nodiscard]] std::vector<CsvRecord> read_csv_records(std::string_view text,
                                                      const std::string& source,
                                                      std::size_t first_line = 1);

}  // namespace kscope::ncu
