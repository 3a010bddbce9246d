#include "report/findings_table.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace kscope::report {
namespace {

std::string checks_text(const Options& o) {
  std::string out;
  for (const auto& c : o.sanitizer.checks) out += (out.empty() ? "" : ", ") + c;
  return out;
}

}  // namespace

std::string hex_text(const std::optional<std::uint64_t>& v) {
  if (!v) return {};
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(*v));
  return buf;
}

std::string dim3_text(const std::optional<Dim3>& d) {
  if (!d) return {};
  return std::to_string(d->x) + "," + std::to_string(d->y) + "," + std::to_string(d->z);
}

std::string location_text(const Finding& f) {
  if (!f.file.empty() && f.line) {
    const auto slash = f.file.find_last_of('/');
    return (slash == std::string::npos ? f.file : f.file.substr(slash + 1)) + ":" +
           std::to_string(*f.line);
  }
  if (f.function.empty()) return {};
  return f.pc ? f.function + "+" + hex_text(f.pc) : f.function;
}

Cells findings_cells(const Results& results) {
  std::vector<std::string> header = {"Check", "Annotation"};
  for (const auto& p : results.parameters()) header.push_back(p);
  for (const char* c :
       {"Kernel", "Category", "Kind", "Block", "Thread", "Where", "Attribution"}) {
    header.emplace_back(c);
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto& f : results.findings()) {
    std::vector<std::string> row = {f.check, f.annotation.empty() ? "-" : f.annotation};
    for (std::size_t i = 0; i < results.parameters().size(); ++i) {
      const bool known = f.config && *f.config < results.configs().size();
      const Config* c = known ? &results.configs()[*f.config] : nullptr;
      row.push_back(c && i < c->size() ? (*c)[i].to_string() : "?");
    }
    row.push_back(f.kernel.empty() ? "-" : f.kernel);
    row.push_back(f.category.empty() ? "-" : f.category);
    row.push_back(f.kind + (f.detail.empty() ? "" : " (" + f.detail + ")"));
    row.push_back(dim3_text(f.block));
    row.push_back(dim3_text(f.thread));
    row.push_back(location_text(f));
    row.push_back(f.attribution);
    rows.push_back(std::move(row));
  }
  Cells cells;
  cells.header = std::move(header);
  cells.rows = std::move(rows);
  return cells;
}

void print_findings(const Results& results, std::ostream& out) {
  if (results.findings().empty()) {
    out << "compute-sanitizer found nothing (" << checks_text(results.options()) << ")\n";
    return;
  }
  const Cells cells = findings_cells(results);
  const auto& header = cells.header;
  const auto& rows = cells.rows;
  std::vector<std::size_t> w(header.size());
  for (std::size_t i = 0; i < header.size(); ++i) w[i] = header[i].size();
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) w[i] = std::max(w[i], row[i].size());
  }
  auto emit = [&](const std::vector<std::string>& row) {
    for (std::size_t i = 0; i < row.size(); ++i) {
      out << (i ? "  " : "") << row[i];
      if (i + 1 < row.size()) out << std::string(w[i] - row[i].size(), ' ');
    }
    out << "\n";
  };
  emit(header);
  std::size_t total = 2 * (w.size() - 1);
  for (auto x : w) total += x;
  out << std::string(total, '-') << "\n";
  for (const auto& row : rows) emit(row);
}

}  // namespace kscope::report
