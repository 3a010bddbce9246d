#include "report/csv_writer.hpp"

#include <cmath>
#include <type_traits>
#include <variant>
#include <vector>

#include "core/number_format.hpp"
#include "core/processed_columns.hpp"
#include "core/raw_columns.hpp"
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

// The header of one column of a column table (raw_columns(), processed_columns()): its name, or
// the parameters' or info collectors' names.
template <class ColumnField>
void append_names(const Results& results, const char* name, const ColumnField& column,
                  const std::vector<std::string>& info_columns, std::vector<std::string>* header) {
  if (std::holds_alternative<ParameterColumns>(column)) {
    header->insert(header->end(), results.parameters().begin(), results.parameters().end());
  } else if (std::holds_alternative<InfoColumns>(column)) {
    header->insert(header->end(), info_columns.begin(), info_columns.end());
  } else {
    header->emplace_back(name);
  }
}

// The CSV cells of one column of a column table (raw_columns(), processed_columns()) in `row`:
// one, or the parameters' or info collectors' group; `missing` says how an absent text is written.
template <class Row, class ColumnField>
void append_cells(const Results& results, const Row& row, const ColumnField& column,
                  ColumnMissing missing, std::size_t info_columns, std::vector<std::string>* f) {
  const auto& m = results.metadata();
  std::visit(
      [&](const auto& field) {
        using F = std::decay_t<decltype(field)>;
        if constexpr (std::is_same_v<F, ParameterColumns>) {
          for (auto& v : params_of(results, row.config)) f->push_back(std::move(v));
        } else if constexpr (std::is_same_v<F, InfoColumns>) {
          append_info(row.info, info_columns, f);
        } else if constexpr (std::is_same_v<F, std::string Metadata::*>) {
          f->push_back(m.*field);
        } else if constexpr (std::is_same_v<F, long long Metadata::*>) {
          f->push_back(std::to_string(m.*field));
        } else if constexpr (std::is_same_v<F, std::string Row::*>) {
          f->push_back(row.*field);
        } else if constexpr (std::is_same_v<F, double Row::*>) {
          f->push_back(num(row.*field));
        } else if constexpr (std::is_same_v<F, std::size_t Row::*>) {
          f->push_back(std::to_string(row.*field));
        } else if constexpr (std::is_same_v<F, std::optional<double> Row::*>) {
          f->push_back(row.*field ? num(*(row.*field)) : "");
        } else if constexpr (std::is_same_v<F, std::optional<bool> Row::*>) {
          f->push_back(row.*field ? (*(row.*field) ? "True" : "False") : "");
        } else {
          f->push_back(row.*field ? *(row.*field)
                                  : missing == ColumnMissing::kFalse ? "False" : "");
        }
      },
      column);
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
  const auto info_columns = raw_info_columns(results.info_columns());
  std::vector<std::string> header;
  for (const auto& c : raw_columns()) append_names(results, c.name, c.field, info_columns, &header);
  write_row(out, header);
  std::vector<std::string> f;
  for (const auto& r : results.raw()) {
    f.clear();
    for (const auto& c : raw_columns()) {
      append_cells(results, r, c.field, ColumnMissing::kNone, info_columns.size(), &f);
    }
    write_row(out, f);
  }
}

void write_processed_csv(const Results& results, std::ostream& out) {
  const auto info_columns = processed_info_columns(results.info_columns());
  std::vector<const ProcessedColumn*> columns;
  std::vector<std::string> header;
  for (const auto& c : processed_columns()) {
    if (!is_shown(c, results)) continue;
    columns.push_back(&c);
    append_names(results, c.name, c.field, info_columns, &header);
  }
  write_row(out, header);
  for (const auto& p : results.processed()) {
    std::vector<std::string> f;
    for (const ProcessedColumn* c : columns) {
      append_cells(results, p, c->field, c->missing, info_columns.size(), &f);
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
