#include "report/table_printer.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/config_failure.hpp"
#include "core/number_format.hpp"
#include "report/findings_table.hpp"
#include "report/processed_cells.hpp"
#include "report/writer.hpp"

namespace kscope::report {
namespace {

std::size_t width(const std::string& s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

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
  const auto& header = cells.header;
  const auto& rows = cells.rows;
  std::vector<std::size_t> w(header.size());
  for (std::size_t i = 0; i < header.size(); ++i) w[i] = width(header[i]);
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) w[i] = std::max(w[i], width(row[i]));
  }
  // Text columns left-aligned, numbers right-aligned.
  const std::size_t first_number = cells.first_number;
  auto emit = [&](const std::vector<std::string>& row) {
    for (std::size_t i = 0; i < row.size(); ++i) {
      const std::string pad(w[i] - width(row[i]), ' ');
      const bool right = i >= first_number && i < first_number + cells.numbers;
      out << (i ? "  " : "") << (right ? pad + row[i] : row[i] + (i + 1 < row.size() ? pad : ""));
    }
    out << "\n";
  };
  emit(header);
  std::size_t total = 0;
  for (auto x : w) total += x;
  out << std::string(total + 2 * (w.size() - 1), '-') << "\n";
  for (const auto& row : rows) emit(row);
  if (rows.empty()) out << "(no rows)\n";
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
