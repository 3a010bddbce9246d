#pragma once
// The aligned console table of Results::print.

#include <ostream>

#include "kscope/results.hpp"

namespace kscope::report {

/// `colour`: ANSI colours for a terminal (WriteOptions::colour).
void print_table(const Results& results, std::ostream& out, bool colour = false);

}  // namespace kscope::report
