// Results' input/output methods: they live in the report layer, which owns the formats.

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/text_file.hpp"
#include "report/html_table.hpp"
#include "report/journal.hpp"
#include "report/json_result.hpp"
#include "report/json_codec.hpp"
#include "report/parquet_result.hpp"
#include "report/svg_plot.hpp"
#include "report/writer.hpp"
#include "kscope/errors.hpp"
#include "kscope/results.hpp"

namespace kscope {
namespace {

// The whole of `in` (the file `path`), read once into its string.
std::string whole_file(std::ifstream& in, const std::string& path) {
  in.clear();
  in.seekg(0);
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) {  // not a regular file: read it as a stream
    std::stringstream all;
    all << in.rdbuf();
    return all.str();
  }
  std::string text(static_cast<std::size_t>(size), '\0');
  in.read(&text[0], static_cast<std::streamsize>(size));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

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

Results Results::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open '" + path + "': " + std::strerror(errno));
  // A Parquet file starts with its magic bytes, whatever its name.
  std::string head(4, '\0');
  in.read(&head[0], 4);
  head.resize(static_cast<std::size_t>(in.gcount()));
  if (report::starts_as_parquet(head)) return report::load_parquet(path);
  in.clear();
  in.seekg(0);
  // A journal starts with a one-line header whose kind says so; its reader reads it line by line.
  std::string first_line;
  std::getline(in, first_line);
  if (first_line.find("\"kscope.journal\"") != std::string::npos) return report::load_journal(path);
  std::string text = whole_file(in, path);
  check_text_file(text, path, "a kscope result (JSON) or journal (JSON lines)");
  // Big results: the text goes once parsed, each section's tree once read (peak memory).
  report::Json j = report::parse_json(text, path);
  std::string().swap(text);
  const report::JsonField root(j);
  if (!j.is_object() || j.value("kind", report::Json()) != "kscope.results") {
    throw FileFormatError("'" + path +
                          "' is not a kscope result file (expected a JSON object whose kind is "
                          "\"kscope.results\", found " +
                          (j.is_object() ? report::describe(j.value("kind", report::Json()))
                                         : report::describe(j)) +
                          ")");
  }
  Data d;
  try {
    report::header_from_json(root, &d);
    d.complete = root.value("complete", true);
    d.journal_path = root.value("journal", std::string());
    if (const auto info = root.find("info_columns")) {
      d.info_columns = report::info_columns_from_json(*info);
    }
    const std::vector<std::string> raw_info = raw_info_columns(d.info_columns);
    const std::vector<std::string> processed_info = processed_info_columns(d.info_columns);
    const auto raw = root.at("raw").items();
    d.raw.reserve(raw.size());
    for (const auto& r : raw) {
      d.raw.push_back(report::raw_row_from_json(r, raw_info));
      report::check_config_index(r, d.raw.back().config, d.configs.size());
    }
    j["raw"] = nullptr;
    const auto processed = root.at("processed").items();
    d.processed.reserve(processed.size());
    for (const auto& p : processed) {
      d.processed.push_back(report::processed_row_from_json(p, processed_info));
      report::check_config_index(p, d.processed.back().config, d.configs.size());
    }
    j["processed"] = nullptr;
    if (const auto t = root.find("telemetry")) d.telemetry = report::telemetry_from_json(*t);
    if (const auto f = root.find("findings")) d.findings = report::findings_from_json(*f);
    if (const auto f = root.find("failed_configs")) {
      d.failures = report::failures_from_json(*f, d.configs.size());
    }
    if (const auto s = root.find("stops")) {
      for (const auto& stop : s->items()) {
        d.stops.push_back(report::config_stop_from_json(stop));
        report::check_config_index(stop, d.stops.back().config, d.configs.size());
      }
    }
    if (const auto t = root.find("timeline")) d.timeline = report::timeline_from_json(*t);
    d.checked = report::names_a_checking_tool(d);
  } catch (const FileFormatError& e) {
    throw FileFormatError("'" + path + "' does not follow the kscope result schema " +
                          "(docs/output-schema.md): " + e.what());
  }
  return Results(std::move(d));
}

}  // namespace kscope
