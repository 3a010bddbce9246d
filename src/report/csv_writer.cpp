#include "report/csv_writer.hpp"

#include <cmath>
#include <vector>

#include "core/number_format.hpp"
#include "report/findings_table.hpp"

namespace kscope::report {
namespace {

std::string num(double x) { return std::isnan(x) ? std::string() : format_shortest(x); }

void write_row(std::ostream& out, const std::vector<std::string>& fields) {
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) out << ',';
    out << csv_field(fields[i]);
  }
  out << '\n';
}

std::string param_text(const Value& v) {
  if (v.is_bool()) return v.get<bool>() ? "True" : "False";
  return v.to_string();
}

// Info collectors' cells: the number or string, empty when there is no value.
void append_info(const std::vector<InfoValue>& values, std::size_t columns,
                 std::vector<std::string>* fields) {
  for (std::size_t i = 0; i < columns; ++i) {
    fields->push_back(i < values.size() ? values[i].to_string() : std::string());
  }
}

std::vector<std::string> params_of(const Results& r, std::size_t config) {
  std::vector<std::string> out;
  const auto& c = r.configs().at(config);
  for (std::size_t i = 0; i < r.parameters().size(); ++i) {
    out.push_back(i < c.size() ? param_text(c[i]) : std::string());
  }
  return out;
}

}  // namespace

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

void write_raw_csv(const Results& results, std::ostream& out) {
  const auto& m = results.metadata();
  std::vector<std::string> header = {"Annotation", "Value", "Metric", "Kernel", "GPU",
                                     "Host", "ComputeClock", "MemoryClock", "Unit"};
  for (auto& c : raw_info_columns(results.info_columns())) header.push_back(std::move(c));
  for (const auto& p : results.parameters()) header.push_back(p);
  write_row(out, header);
  for (const auto& r : results.raw()) {
    std::vector<std::string> f = {r.annotation, num(r.value), r.metric, r.kernel, m.gpu, m.host,
                                  std::to_string(m.compute_clock), std::to_string(m.memory_clock),
                                  r.unit.value_or("")};
    append_info(r.info, results.info_columns().size(), &f);
    for (auto& p : params_of(results, r.config)) f.push_back(std::move(p));
    write_row(out, f);
  }
}

void write_processed_csv(const Results& results, std::ostream& out) {
  const auto& m = results.metadata();
  bool normalized = false;
  for (const auto& p : results.processed()) normalized = normalized || p.normalized.has_value();
  std::vector<std::string> header = {"Annotation", "Metric"};
  for (const auto& p : results.parameters()) header.push_back(p);
  for (const char* c : {"AvgValue", "StdDev", "MinValue", "MaxValue", "NumRuns", "Kernel", "GPU",
                        "Host", "ComputeClock", "MemoryClock", "Unit", "ClockMHz_Min", "TempC_Max",
                        "PowerW_Avg", "Throttled"}) {
    header.emplace_back(c);
  }
  const auto info_columns = processed_info_columns(results.info_columns());
  header.insert(header.end(), info_columns.begin(), info_columns.end());
  for (const char* c : {"CI95_Lower", "CI95_Upper", "RelativeStdDevPct", "StableMeasurement",
                        "Normalized"}) {
    header.emplace_back(c);
  }
  if (normalized) header.emplace_back("NormalizationValue");
  header.emplace_back("Geomean");
  const bool failed = !results.failed_configs().empty();
  if (failed) header.emplace_back("Error");
  write_row(out, header);
  for (const auto& p : results.processed()) {
    std::vector<std::string> f = {p.annotation, p.metric};
    for (auto& v : params_of(results, p.config)) f.push_back(std::move(v));
    for (auto& v : std::vector<std::string>{
             num(p.avg), num(p.stddev), num(p.min), num(p.max), std::to_string(p.num_runs),
             p.kernel, m.gpu, m.host, std::to_string(m.compute_clock),
             std::to_string(m.memory_clock), p.unit.value_or(""), num(p.clock_mhz_min),
             num(p.temp_c_max), num(p.power_w_avg), num(p.throttled)}) {
      f.push_back(std::move(v));
    }
    append_info(p.info, info_columns.size(), &f);
    for (auto& v : std::vector<std::string>{num(p.ci95_lower), num(p.ci95_upper),
                                            num(p.rel_stddev_pct),
                                            p.stable ? (*p.stable ? "True" : "False") : "",
                                            p.normalized ? *p.normalized : "False"}) {
      f.push_back(std::move(v));
    }
    if (normalized) f.push_back(p.normalization_value ? num(*p.normalization_value) : "");
    f.push_back(num(p.geomean));
    if (failed) f.push_back(p.error.value_or(""));
    write_row(out, f);
  }
}

void write_findings_csv(const Results& results, std::ostream& out) {
  std::vector<std::string> header = {"Check",  "Kind",   "Category", "Severity", "Annotation",
                                     "Kernel", "Block",  "Thread",   "Address",  "Size",
                                     "File",   "Line",   "Detail",   "Count",    "Config",
                                     "Run",    "Attribution", "HostStack"};
  for (const auto& p : results.parameters()) header.push_back(p);
  write_row(out, header);
  auto opt = [](const auto& v) { return v ? std::to_string(*v) : std::string(); };
  for (const auto& f : results.findings()) {
    std::string stack;
    for (const auto& frame : f.host_stack) stack += (stack.empty() ? "" : " <- ") + frame;
    std::vector<std::string> row = {f.check, f.kind, f.category, f.severity, f.annotation,
                                    f.kernel, dim3_text(f.block), dim3_text(f.thread),
                                    hex_text(f.address), opt(f.size), f.file, opt(f.line), f.detail,
                                    std::to_string(f.count), opt(f.config), opt(f.run),
                                    f.attribution, stack};
    const bool known = f.config && *f.config < results.configs().size();
    if (known) {
      for (auto& p : params_of(results, *f.config)) row.push_back(std::move(p));
    } else {
      row.resize(row.size() + results.parameters().size());
    }
    write_row(out, row);
  }
}

}  // namespace kscope::report
