#include "report/table_printer.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/config_failure.hpp"
#include "core/number_format.hpp"
#include "report/aligned_text.hpp"
#include "report/findings_table.hpp"
#include "report/processed_cells.hpp"
#include "report/tint.hpp"
#include "report/writer.hpp"

namespace kscope::report {

void print_table(const Results& results, std::ostream& out, bool colour) {
  const auto paint = [colour](const std::string& text, Tint tint) {
    return tinted(text, colour ? tint : Tint::kNone);
  };
  const auto& m = results.metadata();
  out << "kscope results: " << results.name() << " #" << results.id() << " | "
      << (m.gpu.empty() ? "unknown GPU" : m.gpu) << " | " << m.host << " | tool "
      << (m.tool.empty() ? results.options().tool : m.tool);
  if (!m.duration_definition.empty()) out << " | durations " << m.duration_definition;
  if (!results.complete()) {
    out << " | " << paint("INCOMPLETE (journal of an unfinished session)", Tint::kYellow);
  }
  out << "\n";
  if (results.checked()) {
    print_findings(results, out);  // a check, not a measurement: its findings are the result
    return;
  }

  const Cells cells = processed_cells(results);
  const auto stable = static_cast<std::size_t>(
      std::find(cells.header.begin(), cells.header.end(), "Stable") - cells.header.begin());
  CellTint tint;
  if (colour) {
    tint = [&](std::size_t row, std::size_t column) {
      return column == stable && cells.rows[row][column] == "no" ? Tint::kYellow : Tint::kNone;
    };
  }
  print_aligned(cells, out, tint);
  if (cells.rows.empty()) out << "(no rows)\n";
  if (!results.failed_configs().empty()) {
    out << paint(failure_summary(results.failed_configs(), results.configs()), Tint::kRed) << "\n";
  }
}

extern const Writer kTableWriter;  // registered in writer_registry.cpp
const Writer kTableWriter{"table", ".txt", "the aligned console table (kscope show)",
                                  [](const WriteInput& in, std::ostream& out) {
                                    print_table(in.results, out, in.colour);
                                  }, /*compares=*/false, kProcessedTable};

}  // namespace kscope::report
