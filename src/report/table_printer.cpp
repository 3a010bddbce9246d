#include "report/table_printer.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/config_failure.hpp"
#include "core/number_format.hpp"
#include "report/aligned_text.hpp"
#include "report/findings_table.hpp"
#include "report/processed_cells.hpp"
#include "report/writer.hpp"

namespace kscope::report {
namespace {

}  // namespace

void print_table(const Results& results, std::ostream& out) {
  const auto& m = results.metadata();
  out << "kscope results: " << results.name() << " #" << results.id() << " | "
      << (m.gpu.empty() ? "unknown GPU" : m.gpu) << " | " << m.host << " | tool "
      << (m.tool.empty() ? results.options().tool : m.tool);
  if (!results.complete()) out << " | INCOMPLETE (journal of an unfinished session)";
  out << "\n";
  if ((m.tool.empty() ? results.options().tool : m.tool) == "sanitizer") {
    print_findings(results, out);  // a check, not a measurement: its findings are the result
    return;
  }

  const Cells cells = processed_cells(results);
  print_aligned(cells, out);
  if (cells.rows.empty()) out << "(no rows)\n";
  if (!results.failed_configs().empty()) {
    out << failure_summary(results.failed_configs(), results.configs()) << "\n";
  }
}

extern const Writer kTableWriter;  // registered in writer_registry.cpp
const Writer kTableWriter{"table", ".txt", "the aligned console table (kscope show)",
                                  [](const WriteInput& in, std::ostream& out) {
                                    print_table(in.results, out);
                                  }};

}  // namespace kscope::report
