#include "report/json_result.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

#include "core/processed_columns.hpp"
#include "kscope/errors.hpp"
#include "report/json_codec.hpp"
#include "report/json_stream.hpp"
#include "report/json_text.hpp"

namespace kscope::report {
namespace {

// `key`: an array of `items`, each written by `encode(text, item)` as compact text.
template <class Items, class Encode>
void text_array(JsonStream& s, const char* key, const Items& items, const Encode& encode) {
  s.key(key);
  s.begin_array();
  std::string text;
  for (const auto& item : items) {
    text.clear();
    encode(text, item);
    s.compact(text);
  }
  s.end();
}

// The same for rows that a Layout lays out as the document does (no second pass over the text);
// `encode(text, item, layout)`.
template <class Items, class Encode>
void laid_out_array(JsonStream& s, const char* key, const Items& items, const Encode& encode) {
  s.key(key);
  s.begin_array();
  const Layout layout(s.depth());
  std::string text;
  for (const auto& item : items) {
    text.clear();
    encode(text, item, layout);
    s.laid_out(text);
  }
  s.end();
}

}  // namespace

void write_results_json(const Results& results, std::ostream& out,
                        const std::vector<std::string>* config_values) {
  const Results::Data& d = results.data();
  JsonStream s(out);
  s.begin_object();
  const Json head = header_json_before_configs(
      d, "kscope.results", Json{{"complete", d.complete}, {"journal", d.journal_path}});
  for (const auto& [key, value] : head.items()) {
    s.key(key);
    s.json(value);
  }
  std::size_t index = 0;
  text_array(s, "configs", d.configs, [&](std::string& text, const Config& c) {
    const bool given = config_values && index < config_values->size();
    append_config(text, c, index, given ? &(*config_values)[index] : nullptr);
    ++index;
  });
  if (!d.info_columns.empty()) {
    s.key("info_columns");
    s.json(info_columns_to_json(d.info_columns));
  }
  // Rows with an info object (nested) are laid out in a second pass.
  const std::vector<std::string> raw_info = raw_info_columns(d.info_columns);
  const std::vector<std::string> processed_info = processed_info_columns(d.info_columns);
  if (d.info_columns.empty()) {
    laid_out_array(s, "raw", d.raw, [&](std::string& text, const RawRow& r, const Layout& l) {
      append_json(text, r, raw_info, l);
    });
    laid_out_array(s, "processed", d.processed,
                   [&](std::string& text, const ProcessedRow& p, const Layout& l) {
                     append_json(text, p, processed_info, l);
                   });
  } else {
    text_array(s, "raw", d.raw, [&](std::string& text, const RawRow& r) {
      append_json(text, r, raw_info);
    });
    text_array(s, "processed", d.processed, [&](std::string& text, const ProcessedRow& p) {
      append_json(text, p, processed_info);
    });
  }
  text_array(s, "telemetry", d.telemetry,
             [](std::string& text, const RunTelemetry& t) { append_json(text, t); });
  text_array(s, "findings", d.findings,
             [](std::string& text, const Finding& f) { text += to_text(to_json(f)); });
  if (!d.failures.empty()) {
    s.key("failed_configs");
    s.json(failures_to_json(d.failures));
  }
  if (!d.stops.empty()) {
    text_array(s, "stops", d.stops,
               [](std::string& text, const ConfigStop& c) { text += to_text(to_json(c)); });
  }
  if (!d.timeline.empty()) {
    s.key("timeline");
    s.begin_object();
    laid_out_array(s, "phases", d.timeline.phases,
                   [](std::string& text, const PhaseSpan& p, const Layout& l) { append_json(text, p, l); });
    laid_out_array(s, "kernels", d.timeline.kernels,
                   [](std::string& text, const KernelSpan& k, const Layout& l) { append_json(text, k, l); });
    if (!d.timeline.parts.empty()) {
      s.key("parts");
      s.json(Json(d.timeline.parts));
    }
    s.end();
  }
  s.end();
  s.flush();
}

void write_results_json(const Results& results, const std::string& path,
                        const std::vector<std::string>* config_values) {
  std::ofstream out(path);
  if (!out) throw Error("cannot write '" + path + "': " + std::strerror(errno));
  write_results_json(results, out, config_values);
  out << "\n";
  out.flush();
  if (!out) throw Error("cannot write '" + path + "': " + std::strerror(errno));
}

}  // namespace kscope::report
