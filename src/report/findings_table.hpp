#pragma once
// The console table of a sanitizer result (Results::print of a check's result, Results::checked): one row
// per finding, or one line saying the checks found nothing. Also the short texts of a finding's
// place and code location shared with the CSV.

#include <ostream>
#include <string>

#include "kscope/results.hpp"
#include "report/processed_cells.hpp"

namespace kscope::report {

/// One row per finding: Check, Annotation, <parameters...>, Kernel, Category, Kind, Block,
/// Thread, Where, Attribution.
[[nodiscard]] Cells findings_cells(const Results& results);

/// Prints the findings of `results` as an aligned table.
void print_findings(const Results& results, std::ostream& out);

/// "0,0,0" for a block or thread index; "" when absent.
[[nodiscard]] std::string dim3_text(const std::optional<Dim3>& d);

/// "0x7efb9c800000"; "" when absent.
[[nodiscard]] std::string hex_text(const std::optional<std::uint64_t>& v);

/// "x.cu:5" (base name of the file) when known, else "function+0xpc", else "".
[[nodiscard]] std::string location_text(const Finding& f);

}  // namespace kscope::report
