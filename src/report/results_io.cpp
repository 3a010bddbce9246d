// Results' input/output methods: they live in the report layer, which owns the formats.

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "report/html_table.hpp"
#include "report/json_result.hpp"
#include "report/json_codec.hpp"
#include "report/result_reader.hpp"
#include "report/svg_plot.hpp"
#include "report/writer.hpp"
#include "kscope/errors.hpp"
#include "kscope/results.hpp"

namespace kscope {
namespace {

std::ofstream open_for_writing(const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw Error("cannot write '" + path + "': " + std::strerror(errno));
  return out;
}

}  // namespace

std::vector<ProcessedRow> Results::rows(const std::string& metric) const {
  std::vector<ProcessedRow> out;
  for (const auto& p : d_.processed) {
    if (p.metric == metric) out.push_back(p);
  }
  return out;
}

void Results::write(const std::string& format, std::ostream& out,
                    const WriteOptions& options) const {
  const report::Writer& writer = report::find_writer(format);
  report::check_compare(writer, options.compare);
  writer.write(report::WriteInput{*this, options.compare, options.colour, options.full_paths}, out);
}

void Results::write(const std::string& format, const std::string& path,
                    const WriteOptions& options) const {
  const report::Writer& writer = report::find_writer(format);  // before the file is created
  report::check_compare(writer, options.compare);
  auto out = open_for_writing(path);
  writer.write(report::WriteInput{*this, options.compare, options.colour, options.full_paths}, out);
  out.flush();
  if (!out) throw Error("cannot write '" + path + "': " + std::strerror(errno));
}

void Results::print(std::ostream& out) const { write("table", out); }

std::string Results::to_html_table(std::size_t max_rows) const {
  std::ostringstream out;
  const Metadata& m = d_.metadata;
  out << "<div class=\"kscope-results\">\n<p><strong>"
      << report::xml_escape(report::result_title(*this)) << "</strong>: " << report::xml_escape(report::gpu_label(m))
      << (m.host.empty() ? "" : ", " + report::xml_escape(m.host)) << "</p>\n";
  report::write_result_warnings(*this, out);
  report::write_results_html(*this, out, max_rows, false);
  out << "</div>\n";
  return out.str();
}

std::vector<std::string> Results::write_csv(const std::string& prefix) const {
  const std::string tag = d_.name + "-" + std::to_string(d_.id);
  const std::string raw_path = prefix + "profiled_data-" + tag + ".csv";
  const std::string processed_path = prefix + "processed_data-" + tag + ".csv";
  {
    auto out = open_for_writing(raw_path);
    write("raw-csv", out);
  }
  {
    auto out = open_for_writing(processed_path);
    write("csv", out);
  }
  if (!d_.checked && d_.findings.empty()) return {raw_path, processed_path};
  const std::string findings_path = prefix + "findings-" + tag + ".csv";
  {
    auto out = open_for_writing(findings_path);
    write("findings-csv", out);
  }
  return {raw_path, processed_path, findings_path};
}

std::string Results::to_json() const {
  std::ostringstream out;
  report::write_results_json(*this, out);
  return out.str();
}

void Results::write_json(const std::string& path) const { write("json", path); }

Results Results::load(const std::string& path) { return report::load_results(path, {}); }

}  // namespace kscope
