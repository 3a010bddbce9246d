#include "report/csv_writer.hpp"

#include <cmath>
#include <type_traits>
#include <variant>
#include <vector>

#include "core/number_format.hpp"
#include "core/processed_columns.hpp"
#include "report/findings_table.hpp"
#include "report/writer.hpp"

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
  const auto info_columns = processed_info_columns(results.info_columns());
  std::vector<const ProcessedColumn*> columns;
  std::vector<std::string> header;
  for (const auto& c : processed_columns()) {
    if (!is_shown(c, results)) continue;
    columns.push_back(&c);
    if (std::holds_alternative<ParameterColumns>(c.field)) {
      header.insert(header.end(), results.parameters().begin(), results.parameters().end());
    } else if (std::holds_alternative<InfoColumns>(c.field)) {
      header.insert(header.end(), info_columns.begin(), info_columns.end());
    } else {
      header.emplace_back(c.name);
    }
  }
  write_row(out, header);
  for (const auto& p : results.processed()) {
    std::vector<std::string> f;
    for (const ProcessedColumn* c : columns) {
      std::visit(
          [&](const auto& field) {
            using F = std::decay_t<decltype(field)>;
            if constexpr (std::is_same_v<F, ParameterColumns>) {
              for (auto& v : params_of(results, p.config)) f.push_back(std::move(v));
            } else if constexpr (std::is_same_v<F, InfoColumns>) {
              append_info(p.info, info_columns.size(), &f);
            } else if constexpr (std::is_same_v<F, std::string Metadata::*>) {
              f.push_back(m.*field);
            } else if constexpr (std::is_same_v<F, long long Metadata::*>) {
              f.push_back(std::to_string(m.*field));
            } else if constexpr (std::is_same_v<F, std::string ProcessedRow::*>) {
              f.push_back(p.*field);
            } else if constexpr (std::is_same_v<F, double ProcessedRow::*>) {
              f.push_back(num(p.*field));
            } else if constexpr (std::is_same_v<F, std::size_t ProcessedRow::*>) {
              f.push_back(std::to_string(p.*field));
            } else if constexpr (std::is_same_v<F, std::optional<double> ProcessedRow::*>) {
              f.push_back(p.*field ? num(*(p.*field)) : "");
            } else if constexpr (std::is_same_v<F, std::optional<bool> ProcessedRow::*>) {
              f.push_back(p.*field ? (*(p.*field) ? "True" : "False") : "");
            } else {
              f.push_back(p.*field ? *(p.*field)
                                   : c->missing == ColumnMissing::kFalse ? "False" : "");
            }
          },
          c->field);
    }
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

extern const Writer kCsvWriter;  // registered in writer_registry.cpp
const Writer kCsvWriter{"csv", ".csv", "the processed table as CSV (processed_data file)",
                                [](const WriteInput& in, std::ostream& out) {
                                  write_processed_csv(in.results, out);
                                }, /*compares=*/false, kProcessedTable};
extern const Writer kRawCsvWriter;  // registered in writer_registry.cpp
const Writer kRawCsvWriter{"raw-csv", ".csv", "the raw table as CSV (profiled_data file)",
                                  [](const WriteInput& in, std::ostream& out) {
                                    write_raw_csv(in.results, out);
                                  }, /*compares=*/false, ResultTables{/*raw=*/true, /*processed=*/false,
                                               /*telemetry=*/false, /*timeline=*/false}};
extern const Writer kFindingsCsvWriter;  // registered in writer_registry.cpp
const Writer kFindingsCsvWriter{
    "findings-csv", ".csv", "compute-sanitizer's findings as CSV (findings file)",
    [](const WriteInput& in, std::ostream& out) { write_findings_csv(in.results, out); },
    /*compares=*/false, kProcessedTable};

}  // namespace kscope::report
