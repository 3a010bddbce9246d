// Format "html": one self-contained page to share a result: the session's metadata and options,
// the processed table, one plot per metric (inline SVG, svg_plot.hpp), a sanitizer session's
// findings, the compare table with WriteOptions::compare, and the host time per phase when the
// timeline was recorded. No scripts, no style sheets or images from elsewhere: the page makes no
// network request.

#include <algorithm>
#include <map>
#include <string>

#include "core/number_format.hpp"
#include "kscope/compare.hpp"
#include "report/html_table.hpp"
#include "report/svg_plot.hpp"
#include "report/writer.hpp"

namespace kscope::report {
namespace {

constexpr const char* kStyle = R"(body{font-family:sans-serif;margin:24px;color:#222;max-width:1400px}
h1{font-size:22px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #ddd}
table{border-collapse:collapse;font-size:13px;margin:8px 0}
th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f3f3f3}td.num{text-align:right;font-variant-numeric:tabular-nums}
tr:nth-child(even) td{background:#fafafa}.plots{display:flex;flex-wrap:wrap;gap:16px}
.warn{color:#a40}footer{margin-top:32px;color:#777;font-size:12px}
)";

void pairs(const std::vector<std::pair<std::string, std::string>>& kv, std::ostream& out,
           const char* id) {
  out << "<table id=\"" << id << "\">\n";
  for (const auto& [k, v] : kv) {
    out << "<tr><th>" << xml_escape(k) << "</th><td>" << xml_escape(v) << "</td></tr>\n";
  }
  out << "</table>\n";
}

// Host time per phase over the recorded timeline: where the sweep's time went.
void phase_totals(const Results& r, std::ostream& out) {
  std::map<std::string, std::pair<double, std::size_t>> totals;
  for (const auto& p : r.timeline().phases) {
    auto& t = totals[p.phase];
    t.first += static_cast<double>(p.end_ns - p.start_ns) / 1e6;
    ++t.second;
  }
  Cells t;
  t.header = {"Phase", "Total (ms)", "Count", "Mean (us)"};
  t.first_number = 1;
  t.numbers = 3;
  for (const auto& [name, v] : totals) {
    t.rows.push_back({name, format_significant(v.first, 4), std::to_string(v.second),
                      format_significant(1000 * v.first / static_cast<double>(v.second), 4)});
  }
  out << "<h2>Host time per phase</h2>\n<p>From the session's recorded timeline (the trace "
         "format draws it: <code>kscope show --format trace</code>). \"region entry\" lies "
         "inside \"benchmark\".</p>\n";
  HtmlTableOptions o;
  o.id = "phases";
  write_html_table(t, out, o);
}

void write_html(const WriteInput& in, std::ostream& out) {
  const Results& r = in.results;
  const std::string title = result_title(r);
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      << "<title>" << xml_escape(title) << "</title>\n<style>" << kStyle << "</style>\n"
      << "</head>\n<body>\n<h1>" << xml_escape(title) << "</h1>\n";
  write_result_warnings(r, out);
  out << "<h2>Session</h2>\n";
  pairs(metadata_cells(r), out, "metadata");
  out << "<details><summary>Options</summary>\n";
  pairs(options_cells(r, in.full_paths), out, "options");
  out << "</details>\n";
  out << (r.checked() ? "<h2>Findings</h2>\n" : "<h2>Results</h2>\n");
  write_results_html(r, out, 0, true);
  if (!r.checked()) {
    std::vector<std::string> metrics;
    for (const auto& p : r.processed()) {
      if (std::find(metrics.begin(), metrics.end(), p.metric) == metrics.end()) metrics.push_back(p.metric);
    }
    if (!metrics.empty()) {
      out << "<h2>Plots</h2>\n<div class=\"plots\">\n";
      for (const auto& m : metrics) out << svg_plot(r, m);
      out << "</div>\n";
    }
  }
  if (in.compare) {
    out << "<h2>Compared with " << xml_escape(in.compare->name()) << " #" << in.compare->id()
        << "</h2>\n<p>Baseline: " << xml_escape(gpu_label(in.compare->metadata()))
        << ", " << xml_escape(in.compare->metadata().host)
        << ". The verdicts of <code>kscope compare BASELINE RESULT</code>.</p>\n"
        << compare(*in.compare, r).to_html_table();
  }
  if (!r.timeline().phases.empty()) phase_totals(r, out);
  out << "<footer>Written by kscope " << xml_escape(r.metadata().kscope_version)
      << " from the saved result; every image is inline, the page loads nothing else.</footer>\n"
      << "</body>\n</html>\n";
}

}  // namespace

extern const Writer kHtmlWriter;  // registered in writer_registry.cpp
const Writer kHtmlWriter{"html", ".html",
                         "a self-contained HTML report: metadata, table, one plot per metric",
                         &write_html, /*compares=*/true,
                         ResultTables{/*raw=*/false, /*processed=*/true, /*telemetry=*/false,
                                      /*timeline=*/true}};

}  // namespace kscope::report
