#include "report/processed_cells.hpp"

#include <cmath>
#include <stdexcept>
#include <type_traits>
#include <variant>

#include "core/number_format.hpp"
#include "core/processed_columns.hpp"
#include "report/json_codec.hpp"

namespace kscope::report {
namespace {

std::string num(double x) { return std::isnan(x) ? "-" : format_significant(x, 6); }

enum class Format { kText, kNumber, kCount, kPercentOfRuns, kRsd, kYesNo };

// A column of the console table: its short label, the processed column it shows
// (processed_columns()) and how. The console table is a summary: these columns, in this order.
struct Shown {
  const char* label;
  const char* column;
  Format format;
  bool right = false;  // aligned right (the numbers, and Stable between them)
  ColumnShown when = ColumnShown::kAlways;  // shown only then (and when the column is)
};

const std::vector<Shown>& console_columns() {
  static const std::vector<Shown> shown = {
      {"Annotation", "Annotation", Format::kText},
      {"", "<parameters>", Format::kText},
      {"Metric", "Metric", Format::kText},
      {"Unit", "Unit", Format::kText},
      {"Avg", "AvgValue", Format::kNumber, true},
      {"Median", "Median", Format::kNumber, true},
      {"StdDev", "StdDev", Format::kNumber, true},
      {"Min", "MinValue", Format::kNumber, true},
      {"Max", "MaxValue", Format::kNumber, true},
      {"Runs", "NumRuns", Format::kCount, true},
      {"RSD%", "RelativeStdDevPct", Format::kRsd, true},
      {"Stable", "StableMeasurement", Format::kYesNo, true},
      {"RelativeTo", "Normalized", Format::kText, false, ColumnShown::kNormalized},
      // Only when the GPU slowed down for power or heat: the share of runs it did so.
      {"Throttled", "Throttled", Format::kPercentOfRuns},
  };
  return shown;
}

std::string cell(const ProcessedColumn& c, Format format, const ProcessedRow& p) {
  return std::visit(
      [&](const auto& field) -> std::string {
        using F = std::decay_t<decltype(field)>;
        if constexpr (std::is_same_v<F, std::string ProcessedRow::*>) {
          return p.*field;
        } else if constexpr (std::is_same_v<F, std::optional<std::string> ProcessedRow::*>) {
          return (p.*field).value_or("");
        } else if constexpr (std::is_same_v<F, std::size_t ProcessedRow::*>) {
          return std::to_string(p.*field);
        } else if constexpr (std::is_same_v<F, std::optional<bool> ProcessedRow::*>) {
          return p.*field ? (*(p.*field) ? "yes" : "no") : "-";
        } else if constexpr (std::is_same_v<F, double ProcessedRow::*>) {
          const double x = p.*field;
          if (format == Format::kRsd) return std::isnan(x) ? "-" : format_significant(x, 3);
          if (format == Format::kPercentOfRuns) {
            return std::isnan(x) ? "-" : std::to_string(std::lround(100 * x)) + "%";
          }
          return num(x);
        } else {
          throw std::logic_error(std::string("the console table cannot show column ") + c.name);
        }
      },
      c.field);
}

// Whether the console table has `column`: when the processed table has it and `s.when` holds;
// Throttled only when some run was slowed down.
bool has(const Shown& s, const ProcessedColumn& column, const Results& results) {
  if (!is_shown(column, results) || !is_shown(s.when, results)) return false;
  if (s.format != Format::kPercentOfRuns) return true;
  for (const auto& p : results.processed()) {
    if (p.*std::get<double ProcessedRow::*>(column.field) > 0) return true;
  }
  return false;
}

}  // namespace

Cells processed_cells(const Results& results) {
  Cells t;
  std::vector<std::pair<const Shown*, const ProcessedColumn*>> columns;
  for (const auto& s : console_columns()) {
    const std::string name = s.column;  // no temporary: g++ 13's -Wdangling-reference
    const ProcessedColumn& c = processed_column(name);
    if (!has(s, c, results)) continue;
    columns.emplace_back(&s, &c);
    if (std::holds_alternative<ParameterColumns>(c.field)) {
      t.header.insert(t.header.end(), results.parameters().begin(), results.parameters().end());
      continue;
    }
    if (s.right && t.numbers++ == 0) t.first_number = t.header.size();
    t.header.emplace_back(s.label);
  }
  for (const auto& p : results.processed()) {
    std::vector<std::string> row;
    for (const auto& [s, c] : columns) {
      if (std::holds_alternative<ParameterColumns>(c->field)) {
        const auto& config = results.configs().at(p.config);
        for (std::size_t i = 0; i < results.parameters().size(); ++i) {
          row.push_back(i < config.size() ? config[i].to_string() : "");
        }
      } else {
        row.push_back(cell(*c, s->format, p));
      }
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::vector<std::pair<std::string, std::string>> metadata_cells(const Results& results) {
  const Metadata& m = results.metadata();
  auto khz = [](long long v) { return v > 0 ? std::to_string(v / 1000) + " MHz" : "-"; };
  auto cuda = [](int v) {
    return v > 0 ? std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10) : "-";
  };
  auto text = [](const std::string& s) { return s.empty() ? std::string("-") : s; };
  return {{"Session", results.name() + " #" + std::to_string(results.id())},
          {"GPU", text(m.gpu)},
          {"Device", std::to_string(m.device) + (m.pci_bus_id.empty() ? "" : " (" + m.pci_bus_id + ")")},
          {"Compute capability", m.compute_capability > 0
                                     ? std::to_string(m.compute_capability / 10) + "." +
                                           std::to_string(m.compute_capability % 10)
                                     : "-"},
          {"SMs", m.sm_count > 0 ? std::to_string(m.sm_count) : "-"},
          {"L2 cache", m.l2_cache_bytes > 0 ? std::to_string(m.l2_cache_bytes >> 20) + " MiB" : "-"},
          {"SM clock (peak)", khz(m.compute_clock)},
          {"Memory clock (peak)", khz(m.memory_clock)},
          {"CUDA driver", cuda(m.driver_version)},
          {"CUDA runtime", cuda(m.runtime_version)},
          {"Host", text(m.host)},
          {"kscope", text(m.kscope_version)},
          {"Tool", text(m.tool.empty() ? results.options().tool : m.tool) +
                       (m.tool_version.empty() ? "" : " (" + m.tool_version + ")")},
          {"Durations", text(m.duration_definition)},
          {"Started", text(m.started_at)},
          {"Wall time", format_significant(m.wall_seconds, 4) + " s"},
          {"Complete", results.complete() ? "yes" : "no (journal of an unfinished session)"}};
}

std::string gpu_label(const Metadata& m) { return m.gpu.empty() ? "unknown GPU" : m.gpu; }

std::string local_path(const std::string& path) {
  if (path.empty() || path.front() != '/') return path;
  const bool directory = path.back() == '/';
  const std::string trimmed = directory ? path.substr(0, path.size() - 1) : path;
  const std::string last = trimmed.substr(trimmed.rfind('/') + 1);
  return last.empty() ? path : ".../" + last + (directory ? "/" : "");
}

std::vector<std::pair<std::string, std::string>> options_cells(const Results& results,
                                                               bool full_paths) {
  Options options = results.options();
  if (!full_paths) {
    for (std::string* path : {&options.output_prefix, &options.resume, &options.shard_balance}) {
      *path = local_path(*path);
    }
    for (auto& arg : options.reexec_argv) arg = local_path(arg);
  }
  std::vector<std::pair<std::string, std::string>> out;
  const Json j = to_json(options);
  for (auto it = j.begin(); it != j.end(); ++it) {
    out.emplace_back(it.key(), it->is_string() ? it->get<std::string>() : to_text(*it));
  }
  return out;
}

}  // namespace kscope::report
