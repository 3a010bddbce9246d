#pragma once
// The aligned console table of Results::print.

#include <ostream>

#include "kscope/results.hpp"

namespace kscope::report {

void print_table(const Results& results, std::ostream& out);

}  // namespace kscope::report
