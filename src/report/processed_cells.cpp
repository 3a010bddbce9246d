#include "report/processed_cells.hpp"

#include <cmath>

#include "core/number_format.hpp"
#include "report/json_codec.hpp"

namespace kscope::report {
namespace {

std::string num(double x) { return std::isnan(x) ? "-" : format_significant(x, 6); }

}  // namespace

Cells processed_cells(const Results& results) {
  Cells t;
  bool normalized = false;
  for (const auto& p : results.processed()) normalized = normalized || p.normalized.has_value();
  t.header = {"Annotation"};
  for (const auto& p : results.parameters()) t.header.push_back(p);
  for (const char* c : {"Metric", "Unit", "Avg", "Median", "StdDev", "Min", "Max", "Runs", "RSD%", "Stable"}) {
    t.header.emplace_back(c);
  }
  t.first_number = 1 + results.parameters().size() + 2;
  t.numbers = 8;
  if (normalized) t.header.emplace_back("RelativeTo");
  // Only when the GPU slowed down for power or heat: the share of runs it did so.
  bool throttled = false;
  for (const auto& p : results.processed()) throttled = throttled || p.throttled > 0;
  if (throttled) t.header.emplace_back("Throttled");
  for (const auto& p : results.processed()) {
    std::vector<std::string> row = {p.annotation};
    const auto& c = results.configs().at(p.config);
    for (std::size_t i = 0; i < results.parameters().size(); ++i) {
      row.push_back(i < c.size() ? c[i].to_string() : "");
    }
    row.push_back(p.metric);
    row.push_back(p.unit.value_or(""));
    row.push_back(num(p.avg));
    row.push_back(num(p.median));
    row.push_back(num(p.stddev));
    row.push_back(num(p.min));
    row.push_back(num(p.max));
    row.push_back(std::to_string(p.num_runs));
    row.push_back(std::isnan(p.rel_stddev_pct) ? "-" : format_significant(p.rel_stddev_pct, 3));
    row.push_back(p.stable ? (*p.stable ? "yes" : "no") : "-");
    if (normalized) row.push_back(p.normalized.value_or(""));
    if (throttled) {
      row.push_back(std::isnan(p.throttled) ? "-"
                                            : std::to_string(std::lround(100 * p.throttled)) + "%");
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
