#include "report/table_printer.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/config_failure.hpp"
#include "core/number_format.hpp"
#include "report/findings_table.hpp"

namespace kscope::report {
namespace {

std::size_t width(const std::string& s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::string num(double x) { return std::isnan(x) ? "-" : format_significant(x, 6); }

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

  bool normalized = false;
  for (const auto& p : results.processed()) normalized = normalized || p.normalized.has_value();
  std::vector<std::string> header = {"Annotation"};
  for (const auto& p : results.parameters()) header.push_back(p);
  for (const char* c : {"Metric", "Unit", "Avg", "StdDev", "Min", "Max", "Runs", "RSD%", "Stable"}) {
    header.emplace_back(c);
  }
  if (normalized) header.emplace_back("RelativeTo");
  // Only when the GPU slowed down for power or heat: the share of runs it did so.
  bool throttled = false;
  for (const auto& p : results.processed()) throttled = throttled || p.throttled > 0;
  if (throttled) header.emplace_back("Throttled");
  std::vector<std::vector<std::string>> rows;
  for (const auto& p : results.processed()) {
    std::vector<std::string> row = {p.annotation};
    const auto& c = results.configs().at(p.config);
    for (std::size_t i = 0; i < results.parameters().size(); ++i) {
      row.push_back(i < c.size() ? c[i].to_string() : "");
    }
    row.push_back(p.metric);
    row.push_back(p.unit.value_or(""));
    row.push_back(num(p.avg));
    row.push_back(num(p.stddev));
    row.push_back(num(p.min));
    row.push_back(num(p.max));
    row.push_back(std::to_string(p.num_runs));
    row.push_back(std::isnan(p.rel_stddev_pct) ? "-" : format_significant(p.rel_stddev_pct, 3));
    row.push_back(p.stable ? (*p.stable ? "yes" : "no") : "-");
    if (normalized) row.push_back(p.normalized.value_or(""));
    if (throttled) {
      row.push_back(std::isnan(p.throttled) ? "-" : std::to_string(std::lround(100 * p.throttled)) + "%");
    }
    rows.push_back(std::move(row));
  }
  std::vector<std::size_t> w(header.size());
  for (std::size_t i = 0; i < header.size(); ++i) w[i] = width(header[i]);
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) w[i] = std::max(w[i], width(row[i]));
  }
  // Text columns left-aligned, numbers right-aligned.
  const std::size_t first_number = 1 + results.parameters().size() + 2;
  auto emit = [&](const std::vector<std::string>& row) {
    for (std::size_t i = 0; i < row.size(); ++i) {
      const std::string pad(w[i] - width(row[i]), ' ');
      const bool right = i >= first_number && i < first_number + 7;
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

}  // namespace kscope::report
