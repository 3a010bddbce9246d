// Format "md": metadata, the processed table (or a sanitizer session's findings) and, with
// WriteOptions::compare, the compare table, as GitHub-flavoured markdown for issues and pull
// requests.

#include <string>

#include "core/config_failure.hpp"
#include "kscope/compare.hpp"
#include "report/findings_table.hpp"
#include "report/processed_cells.hpp"
#include "report/writer.hpp"

namespace kscope::report {
namespace {

// A table cell: pipes escaped, line breaks as <br> (a cell is one line).
std::string cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n') {
      out += "<br>";
    } else if (c != '\r') {
      out += c;
    }
  }
  return out.empty() ? " " : out;
}

void table(const Cells& t, std::ostream& out) {
  out << "|";
  for (const auto& h : t.header) out << " " << cell(h) << " |";
  out << "\n|";
  for (std::size_t i = 0; i < t.header.size(); ++i) {
    const bool number = i >= t.first_number && i < t.first_number + t.numbers;
    out << (number ? "---:|" : "---|");
  }
  out << "\n";
  for (const auto& row : t.rows) {
    out << "|";
    for (const auto& c : row) out << " " << cell(c) << " |";
    out << "\n";
  }
}

void pairs(const std::vector<std::pair<std::string, std::string>>& kv, std::ostream& out) {
  out << "| | |\n|---|---|\n";
  for (const auto& [k, v] : kv) out << "| " << cell(k) << " | " << cell(v) << " |\n";
}

void write_markdown(const WriteInput& in, std::ostream& out) {
  const Results& r = in.results;
  out << "## kscope: " << cell(r.name()) << " #" << r.id() << "\n\n";
  pairs(metadata_cells(r), out);
  out << "\n<details><summary>Options</summary>\n\n";
  pairs(options_cells(r, in.full_paths), out);
  out << "\n</details>\n\n";
  if (r.checked()) {
    out << "### Findings\n\n";
    if (r.findings().empty()) {
      out << "compute-sanitizer found nothing.\n";
    } else {
      table(findings_cells(r), out);
    }
  } else {
    out << "### Results\n\n";
    const Cells cells = processed_cells(r);
    if (cells.rows.empty()) {
      out << "(no rows)\n";
    } else {
      table(cells, out);
    }
    if (!r.failed_configs().empty()) {
      out << "\n```\n" << failure_summary(r.failed_configs(), r.configs()) << "\n```\n";
    }
  }
  if (in.compare) {
    out << "\n### Compared with " << cell(in.compare->name()) << " #" << in.compare->id()
        << " (" << cell(in.compare->metadata().gpu.empty() ? "unknown GPU" : in.compare->metadata().gpu)
        << ")\n\nThe verdicts of `kscope compare BASELINE RESULT`.\n\n"
        << compare(*in.compare, r).to_markdown();
  }
}

}  // namespace

extern const Writer kMarkdownWriter;  // registered in writer_registry.cpp
const Writer kMarkdownWriter{"md", ".md",
                             "metadata and the processed table as markdown (issues, pull requests)",
                             &write_markdown, /*compares=*/true,
                             kProcessedTable};

}  // namespace kscope::report
