// kscope::import_ncu: a report made elsewhere -> Results, one config per profiled result.

#include "kscope/ncu_import.hpp"

#include <cmath>
#include <filesystem>

#include "collect/ncu/ncu_number.hpp"
#include "collect/ncu/ncu_raw_table.hpp"
#include "collect/ncu/ncu_record_mapper.hpp"
#include "collect/ncu/ncu_report_text.hpp"
#include "core/duration_definition.hpp"
#include "core/kernel_name.hpp"
#include "core/logger.hpp"
#include "core/transformation.hpp"
#include "kscope/annotation.hpp"

namespace kscope {
namespace {

// Families every raw page carries whatever was requested: device and launch attributes.
bool descriptive_metric(const std::string& name) {
  for (const char* prefix :
       {"device__attribute_", "launch__", "c2clink__", "numa__", "nvlink__", "profiler__"}) {
    if (name.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

// A column is a metric to import when every result holds a number (or n/a) and one a value.
bool numeric_column(const ncu::NcuRawTable& t, std::size_t column) {
  bool any = false;
  for (const auto& r : t.results()) {
    const auto v = ncu::parse_ncu_number(r.cells[column]);
    if (!v) return false;
    any = any || !std::isnan(*v);
  }
  return any;
}

std::vector<std::string> chosen_metrics(const ncu::NcuRawTable& t, const NcuImportOptions& o) {
  if (!o.metrics.empty()) {
    ncu::check_metrics_present(t, o.metrics);
    return o.metrics;
  }
  std::vector<std::string> out;
  for (const auto& m : t.metric_columns()) {
    if ((o.all_metrics || !descriptive_metric(m)) &&
        numeric_column(t, static_cast<std::size_t>(t.find_column(m)))) {
      out.push_back(m);
    }
  }
  return out;
}

// In the column's base unit (an L2 size printed in "Mbyte" is still bytes); 0 when absent.
long long integer_attribute(const ncu::NcuRawTable& t, const ncu::NcuResult& r, const char* column) {
  const long c = t.find_column(column);
  if (c < 0 || !ncu::parse_ncu_number(t.text(r, column))) return 0;
  const double v = t.number(r, static_cast<std::size_t>(c));
  return std::isnan(v) ? 0 : std::llround(v);
}

Metadata metadata_of(const ncu::NcuRawTable& t) {
  Metadata m;
  m.tool = "ncu";
  if (t.results().empty()) return m;
  const auto& r = t.results().front();
  m.gpu = t.text(r, "device__attribute_display_name");
  m.device = r.device;
  m.host = r.host;
  const auto cc = ncu::parse_ncu_number(t.text(r, "CC"));
  if (cc && !std::isnan(*cc)) m.compute_capability = static_cast<int>(std::lround(*cc * 10));
  m.sm_count = static_cast<int>(integer_attribute(t, r, "device__attribute_multiprocessor_count"));
  m.l2_cache_bytes = integer_attribute(t, r, "device__attribute_l2_cache_size");
  m.compute_clock = integer_attribute(t, r, "device__attribute_clock_rate");
  m.memory_clock = integer_attribute(t, r, "device__attribute_memory_clock_rate");
  return m;
}

}  // namespace

Results import_ncu(const std::string& path, const NcuImportOptions& options) {
  const auto table = ncu::NcuRawTable::parse(ncu::ncu_raw_csv(path, options.ncu), path);
  Options log_options;
  log_options.verbosity = options.verbosity;
  const Logger log(log_options);
  if (!table.skipped().empty() && log.debug_enabled()) {
    std::string text = "'" + path + "': skipped " + std::to_string(table.skipped().size()) +
                       " line(s) before the header row of ncu's raw page:";
    for (const auto& s : table.skipped()) {
      text += "\n  line " + std::to_string(s.line) + ": " + s.text;
    }
    log.debug(text);
  }
  Results::Data d;
  d.name = std::filesystem::path(path).stem().string();
  d.options.tool = "ncu";
  d.options.metrics = chosen_metrics(table, options);
  d.metadata = metadata_of(table);
  if (measures_durations(d.options)) d.metadata.duration_definition = "ncu import";

  std::vector<std::string> shape;  // launch-shape columns this report has
  for (const char* c : {"Block Size", "Grid Size"}) {
    if (table.find_column(c) >= 0) shape.emplace_back(c);
  }
  d.parameters = {"ID"};
  d.parameters.insert(d.parameters.end(), shape.begin(), shape.end());
  for (const auto& r : table.results()) {
    std::vector<Value> values{Value(static_cast<std::int64_t>(r.id))};
    for (const auto& c : shape) values.emplace_back(table.text(r, c));
    Config config(std::move(values), d.parameters);
    config.set_index(d.configs.size());
    const std::string label = ncu::nvtx_label(r.start_end, r.push_pop, kNvtxDomain);
    const std::string kernel = r.kernel == "range" ? r.kernel : kernel_base_name(r.kernel);
    for (const auto& m : d.options.metrics) {
      const auto c = static_cast<std::size_t>(table.find_column(m));
      RawRow row;
      row.annotation = label.empty() ? "-" : label;
      row.value = table.number(r, c);
      row.metric = m;
      row.kernel = kernel;
      if (!table.unit(c).empty()) row.unit = table.unit(c);
      row.config = d.configs.size();
      d.raw.push_back(std::move(row));
    }
    d.configs.push_back(std::move(config));
  }
  d.processed = aggregate(d.raw, "");
  return Results(std::move(d));
}

}  // namespace kscope
