#include "report/html_table.hpp"

#include "core/config_failure.hpp"
#include "report/findings_table.hpp"
#include "report/svg_plot.hpp"

namespace kscope::report {

void write_html_table(const Cells& t, std::ostream& out, const HtmlTableOptions& o) {
  out << "<table" << (o.id.empty() ? "" : " id=\"" + xml_escape(o.id) + "\"") << ">\n<thead><tr>";
  for (const auto& h : t.header) out << "<th>" << xml_escape(h) << "</th>";
  out << "</tr></thead>\n<tbody>\n";
  const std::size_t shown =
      o.max_rows > 0 && o.max_rows < t.rows.size() ? o.max_rows : t.rows.size();
  for (std::size_t r = 0; r < shown; ++r) {
    const auto& row = t.rows[r];
    out << "<tr>";
    for (std::size_t i = 0; i < row.size(); ++i) {
      const bool number = i >= t.first_number && i < t.first_number + t.numbers;
      out << "<td" << (number ? " class=\"num\"" : "")
          << (o.cell_attributes ? o.cell_attributes(r, i) : "") << ">" << xml_escape(row[i])
          << "</td>";
    }
    out << "</tr>\n";
  }
  out << "</tbody>\n</table>\n";
  if (shown < t.rows.size()) {
    out << "<p class=\"kscope-more\">The first " << shown << " of " << t.rows.size()
        << " rows; " << t.rows.size() - shown << " left out.</p>\n";
  }
}

std::string result_title(const Results& r) {
  return "kscope: " + r.name() + " #" + std::to_string(r.id());
}

void write_result_warnings(const Results& r, std::ostream& out) {
  if (!r.complete()) {
    out << "<p class=\"warn\">Incomplete: the journal of an unfinished session.</p>\n";
  }
  for (const auto& w : r.load_warnings()) out << "<p class=\"warn\">" << xml_escape(w) << "</p>\n";
}

void write_results_html(const Results& r, std::ostream& out, std::size_t max_rows, bool ids) {
  HtmlTableOptions o;
  o.max_rows = max_rows;
  if (r.checked()) {
    if (r.findings().empty()) {
      out << "<p>compute-sanitizer found nothing.</p>\n";
    } else {
      if (ids) o.id = "findings";
      write_html_table(findings_cells(r), out, o);
    }
    return;
  }
  const Cells cells = processed_cells(r);
  if (cells.rows.empty()) {
    out << "<p>(no rows)</p>\n";
  } else {
    if (ids) o.id = "processed";
    write_html_table(cells, out, o);
  }
  if (!r.failed_configs().empty()) {
    out << "<pre class=\"warn\"" << (ids ? " id=\"failed\"" : "") << ">"
        << xml_escape(failure_summary(r.failed_configs(), r.configs())) << "</pre>\n";
  }
}

}  // namespace kscope::report
