#include "kscope/merge.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "api/sweep_identity.hpp"
#include "core/config_failure.hpp"
#include "core/processed_columns.hpp"
#include "core/transformation.hpp"
#include "kscope/errors.hpp"

namespace kscope {
namespace {

using RowKey = std::tuple<std::string, std::string, std::size_t>;  // annotation, metric, config

std::string label_of(const MergeOptions& o, std::size_t i) {
  return i < o.labels.size() ? "'" + o.labels[i] + "'" : "part " + std::to_string(i + 1);
}

// The configs a part measured: those with rows, and those that failed.
std::set<std::size_t> measured_configs(const Results& r) {
  std::set<std::size_t> out;
  for (const auto& p : r.processed()) out.insert(p.config);
  for (const auto& f : r.failed_configs()) out.insert(f.config);
  return out;
}

// How a merged timeline names part i: its rank when it was a shard, and where it came from.
std::string part_name(const MergeOptions& o, std::size_t i, const Metadata& m) {
  const std::string from = i < o.labels.size() ? o.labels[i] : "part " + std::to_string(i + 1);
  return m.shard_count > 1 ? "rank " + std::to_string(m.shard_index) + ": " + from : from;
}

std::string config_list(const std::vector<std::size_t>& configs) {
  std::string out;
  for (std::size_t i = 0; i < configs.size() && i < 10; ++i) {
    out += (i ? ", " : "") + std::to_string(configs[i]);
  }
  if (configs.size() > 10) out += ", ... (" + std::to_string(configs.size()) + " in all)";
  return out;
}

// Appends a part's timeline to the merged one: its spans of the configs it is kept for (and those
// outside runs), each naming its process in `merged->parts`. A part that is itself a merge
// brings its own parts.
template <class Owns>
void add_timeline(const Timeline& t, const std::string& name, const Owns& owns, Timeline* merged) {
  const std::size_t first = merged->parts.size();
  if (t.parts.empty()) {
    merged->parts.push_back(name);
  } else {
    merged->parts.insert(merged->parts.end(), t.parts.begin(), t.parts.end());
  }
  for (const auto& p : t.phases) {
    if (p.config && !owns(*p.config)) continue;
    PhaseSpan span = p;
    span.part = first + p.part;
    merged->phases.push_back(span);
  }
  for (const auto& k : t.kernels) {
    if (!owns(k.config)) continue;
    KernelSpan span = k;
    span.part = first + k.part;
    merged->kernels.push_back(span);
  }
}

}  // namespace

Results merge(const std::vector<Results>& parts, const MergeOptions& options) {
  if (parts.empty()) throw InvalidArgument("merge: no parts given; name the results to join.");
  const Results::Data& base = parts.front().data();
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const auto& d = parts[i].data();
    if (const auto difference = sweep_difference(base, d.name, d.configs, d.options,
                                                 label_of(options, 0), label_of(options, i))) {
      throw InvalidArgument("Cannot merge " + label_of(options, i) + " with " +
                            label_of(options, 0) + ": " + *difference +
                            ". Merge the shards of one sweep.");
    }
  }

  // Which part each config comes from.
  std::map<std::size_t, std::size_t> owner;
  std::vector<std::size_t> overlapping;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    for (auto c : measured_configs(parts[i])) {
      if (!owner.emplace(c, i).second) overlapping.push_back(c);
    }
  }
  if (!overlapping.empty() && !options.allow_overlap) {
    throw InvalidArgument("Cannot merge: config(s) " + config_list(overlapping) +
                          " were measured by more than one part (config " +
                          std::to_string(overlapping.front()) + " by " +
                          label_of(options, owner.at(overlapping.front())) +
                          " and a later part). Merge each shard once, or allow overlaps "
                          "(--allow-overlap) to keep the first part's.");
  }
  std::vector<std::size_t> missing;
  for (std::size_t c = 0; c < base.configs.size(); ++c) {
    if (owner.count(c) == 0) missing.push_back(c);
  }
  if (!missing.empty() && !options.allow_missing) {
    throw InvalidArgument("Cannot merge: no part measured config(s) " + config_list(missing) +
                          " (config " + std::to_string(missing.front()) + ": " +
                          base.configs[missing.front()].label() +
                          "). Merge every shard of the sweep, or allow gaps (--allow-missing).");
  }
  auto owns = [&](std::size_t part, std::size_t config) {
    const auto it = owner.find(config);
    return it != owner.end() && it->second == part;
  };

  Results::Data d = base;
  d.raw.clear();
  d.processed.clear();
  d.telemetry.clear();
  d.findings.clear();
  d.failures.clear();
  d.stops.clear();
  d.timeline = {};
  d.load_warnings.clear();
  d.journal_path.clear();
  d.complete = missing.empty();
  d.metadata.shard_index = 0;
  d.metadata.shard_count = 1;
  // The raw table of one process: measured metrics config by config, then derived ones.
  std::vector<RawRow> measured, derived;
  std::map<RowKey, const ProcessedRow*> part_rows;
  std::map<std::string, std::vector<std::size_t>> gpus;  // GPU model -> configs
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const auto& p = parts[i].data();
    for (const auto& r : p.raw) {
      if (!owns(i, r.config)) continue;
      const bool plain = std::find(d.options.metrics.begin(), d.options.metrics.end(), r.metric) !=
                         d.options.metrics.end();
      (plain ? measured : derived).push_back(r);
    }
    for (const auto& row : p.processed) {
      if (owns(i, row.config)) part_rows.emplace(RowKey{row.annotation, row.metric, row.config}, &row);
    }
    for (const auto& t : p.telemetry) {
      if (owns(i, t.config)) d.telemetry.push_back(t);
    }
    for (const auto& f : p.failures) {
      if (owns(i, f.config)) d.failures.push_back(f);
    }
    for (const auto& stop : p.stops) {
      if (owns(i, stop.config)) d.stops.push_back(stop);
    }
    for (const auto& f : p.findings) {
      if (!f.config || owns(i, *f.config)) d.findings.push_back(f);
    }
    for (const auto& w : p.load_warnings) d.load_warnings.push_back(w);
    d.complete = d.complete && p.complete;
    d.metadata.wall_seconds = std::max(d.metadata.wall_seconds, p.metadata.wall_seconds);
    for (auto c : measured_configs(parts[i])) {
      if (owns(i, c)) gpus[p.metadata.gpu].push_back(c);
    }
    add_timeline(p.timeline, part_name(options, i, p.metadata), [&](std::size_t config) {
      return owns(i, config);
    }, &d.timeline);
  }
  if (d.timeline.empty()) d.timeline.parts.clear();
  // One process's extraction orders annotations by their first run, then runs: rank each
  // annotation by the first config it appears in (and its place in that part's table).
  std::map<std::string, std::pair<std::size_t, std::size_t>> first_seen;
  for (std::size_t i = 0; i < measured.size(); ++i) {
    const auto key = std::make_pair(measured[i].config, i);
    auto [it, inserted] = first_seen.emplace(measured[i].annotation, key);
    if (!inserted && key < it->second) it->second = key;
  }
  auto sweep_order = [&](const RawRow& a, const RawRow& b) {
    const auto ra = first_seen.count(a.annotation) ? first_seen.at(a.annotation) : std::make_pair(a.config, std::size_t{0});
    const auto rb = first_seen.count(b.annotation) ? first_seen.at(b.annotation) : std::make_pair(b.config, std::size_t{0});
    return std::tie(ra, a.config, a.run) < std::tie(rb, b.config, b.run);
  };
  std::stable_sort(measured.begin(), measured.end(), sweep_order);
  std::stable_sort(derived.begin(), derived.end(), sweep_order);
  d.raw = std::move(measured);
  d.raw.insert(d.raw.end(), derived.begin(), derived.end());
  d.processed = aggregate(d.raw, d.raw.empty() ? std::string() : d.options.normalize_against);
  // Per-config columns the raw rows do not carry (telemetry, info collectors) come from the part.
  for (auto& row : d.processed) {
    const auto it = part_rows.find(RowKey{row.annotation, row.metric, row.config});
    if (it == part_rows.end()) continue;
    copy_config_columns(*it->second, &row);
  }
  std::sort(d.stops.begin(), d.stops.end(),
            [](const ConfigStop& a, const ConfigStop& b) { return a.config < b.config; });
  std::sort(d.failures.begin(), d.failures.end(),
            [](const ConfigFailure& a, const ConfigFailure& b) { return a.config < b.config; });
  add_failure_rows(d.failures, d.options.metrics, processed_info_columns(d.info_columns).size(),
                   &d.processed);
  std::stable_sort(d.telemetry.begin(), d.telemetry.end(), [](const auto& a, const auto& b) {
    return std::tie(a.config, a.run) < std::tie(b.config, b.run);
  });
  if (gpus.size() > 1) {
    std::string text = "the configs were measured on different GPU models:";
    for (auto& [gpu, configs] : gpus) {
      std::sort(configs.begin(), configs.end());
      text += " " + (gpu.empty() ? std::string("unknown") : gpu) + " (configs " +
              config_list(configs) + ");";
    }
    text.back() = '.';
    d.load_warnings.push_back(text + " Compare their values with care.");
    d.metadata.gpu = "mixed";
  }
  // Activity-record durations and ncu's (or the range profiler's) are different measures.
  std::map<std::string, std::string> definitions;  // definition -> the first part with it
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string& definition = parts[i].metadata().duration_definition;
    if (!definition.empty()) definitions.emplace(definition, label_of(options, i));
  }
  if (definitions.size() > 1) {
    std::string text = "the parts' durations were measured with different definitions:";
    for (const auto& [definition, part] : definitions) text += " '" + definition + "' (" + part + "),";
    text.back() = '.';
    d.load_warnings.push_back(text + " Compare their values with care (docs/tools/cupti.md#durations).");
    d.metadata.duration_definition = "mixed";
  }
  if (!missing.empty()) {
    d.load_warnings.push_back("no part measured config(s) " + config_list(missing) +
                              ": the merged result has no rows for them");
  }
  return Results(std::move(d));
}

}  // namespace kscope
