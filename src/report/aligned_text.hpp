#pragma once
// Cells printed as an aligned console table: the header, a rule, one line per row; text columns
// left-aligned, the number columns right-aligned, widths counted in characters (UTF-8), two
// spaces between columns. The processed table and the compare table print through it.

#include <ostream>

#include "report/processed_cells.hpp"

namespace kscope::report {

void print_aligned(const Cells& cells, std::ostream& out);

}  // namespace kscope::report
