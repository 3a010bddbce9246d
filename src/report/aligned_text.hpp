#pragma once
// Cells printed as an aligned console table: the header, a rule, one line per row; text columns
// left-aligned, the number columns right-aligned, widths counted in characters (UTF-8), two
// spaces between columns. The processed table and the compare table print through it.

#include <cstddef>
#include <functional>
#include <ostream>

#include "report/processed_cells.hpp"
#include "report/tint.hpp"

namespace kscope::report {

/// The colour of the cell in row `row` (an index into Cells::rows) and column `column`.
using CellTint = std::function<Tint(std::size_t row, std::size_t column)>;

/// `tint` empty: plain text. Otherwise the header is bold and each cell gets tint(row, column);
/// the colours do not change the alignment.
void print_aligned(const Cells& cells, std::ostream& out, const CellTint& tint = {});

}  // namespace kscope::report
