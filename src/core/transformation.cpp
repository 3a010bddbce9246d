#include "core/transformation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string_view>
#include <utility>

#include "core/row_groups.hpp"
#include "core/statistics.hpp"
#include "kscope/errors.hpp"

namespace kscope {
namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

std::vector<RawRow> build_raw_rows(const std::vector<ExtractedRecord>& records,
                                   const std::vector<std::string>& metrics, const DeriveFn& derive,
                                   const std::vector<Config>& configs) {
  std::vector<RawRow> rows;
  rows.reserve(records.size() * metrics.size());
  auto add_row = [&rows](const ExtractedRecord& r, double value, std::string metric,
                         std::optional<std::string> unit) {
    RawRow& row = rows.emplace_back();
    row.annotation = r.annotation;
    row.value = value;
    row.metric = std::move(metric);
    row.kernel = r.kernel;
    row.unit = std::move(unit);
    row.config = r.run.config;
    row.run = r.run.run;
  };
  for (const auto& r : records) {
    for (std::size_t m = 0; m < metrics.size(); ++m) {
      add_row(r, r.values[m], metrics[m], r.units[m]);
    }
  }
  if (!derive) return rows;

  // Derived metrics: computed for measured runs; failed runs get NaN rows with the names (and
  // units) the function returned elsewhere.
  std::vector<std::vector<DerivedValue>> derived(records.size());
  std::vector<std::pair<std::string, std::optional<std::string>>> names;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const auto& r = records[i];
    if (r.failed) continue;
    if (r.run.config >= configs.size()) {
      throw ExtractionError("record refers to config " + std::to_string(r.run.config) +
                            " but the sweep has " + std::to_string(configs.size()) + " configs");
    }
    derived[i] = derive(r.values, configs[r.run.config]);
    for (std::size_t k = 0; k < derived[i].size(); ++k) {
      const auto& name = derived[i][k].name;
      // A derived value named like a measured metric, or twice, would be merged with the other
      // one into one row group (NumRuns counting both).
      if (std::find(metrics.begin(), metrics.end(), name) != metrics.end()) {
        throw InvalidArgument("derive_metric returned a value named '" + name +
                              "', which is a measured metric of this session. Give derived "
                              "metrics names of their own.");
      }
      for (std::size_t j = 0; j < k; ++j) {
        if (derived[i][j].name == name) {
          throw InvalidArgument("derive_metric returned two values named '" + name +
                                "' for one run. Give each derived metric its own name.");
        }
      }
    }
    for (const auto& d : derived[i]) {
      bool known = false;
      for (const auto& n : names) known = known || n.first == d.name;
      if (!known) names.emplace_back(d.name, d.unit);
    }
  }
  for (std::size_t i = 0; i < records.size(); ++i) {
    const auto& r = records[i];
    if (r.failed) {
      for (const auto& n : names) add_row(r, kNaN, n.first, n.second);
    }
    for (auto& d : derived[i]) add_row(r, d.value, std::move(d.name), std::move(d.unit));
  }
  return rows;
}

std::vector<ProcessedRow> aggregate(const std::vector<RawRow>& raw,
                                    const std::string& normalize_against) {
  const RowGroups groups(raw);
  std::vector<ProcessedRow> out;
  out.reserve(groups.groups().size());
  std::vector<double> values;
  for (const auto& g : groups.groups()) {
    const auto rows = groups.rows(g);
    values.clear();
    for (const RawRow* r : rows) values.push_back(r->value);
    const auto s = stats::summarize(values);
    ProcessedRow p;
    p.annotation = rows.front()->annotation;
    p.metric = rows.front()->metric;
    p.config = g.config;
    p.avg = s.mean;
    p.stddev = s.stddev;
    p.min = s.min;
    p.max = s.max;
    p.num_runs = s.count;
    p.kernel = rows.front()->kernel;
    p.unit = rows.front()->unit;
    p.median = s.median;
    p.q1 = s.q1;
    p.q3 = s.q3;
    p.ci95_lower = s.ci95_lower;
    p.ci95_upper = s.ci95_upper;
    p.rel_stddev_pct = s.rel_stddev_pct;
    p.stable = s.stable;
    out.push_back(std::move(p));
  }
  // The series of each row of `out` (groups().size() of them until normalisation drops rows).
  std::vector<std::size_t> series;
  series.reserve(out.size());
  for (const auto& g : groups.groups()) series.push_back(g.series);

  if (!normalize_against.empty()) {
    // Keys view the strings of `raw`: the rows of `out` are moved below.
    std::map<std::pair<std::string_view, std::size_t>, double> baseline;
    std::vector<std::string_view> annotations;
    for (std::size_t i = 0; i < out.size(); ++i) {
      const auto& [annotation, metric] = groups.series()[series[i]];
      if (std::find(annotations.begin(), annotations.end(), annotation) == annotations.end()) {
        annotations.push_back(annotation);
      }
      if (annotation == normalize_against) baseline[{metric, out[i].config}] = out[i].avg;
    }
    if (std::find(annotations.begin(), annotations.end(), normalize_against) == annotations.end()) {
      std::string list;
      for (const auto& a : annotations) list.append(list.empty() ? "'" : ", '").append(a) += "'";
      throw InvalidArgument("normalize_against: Annotation '" + normalize_against +
                            "' not found in data. The annotations are: " + list + ".");
    }
    std::vector<ProcessedRow> kept;
    std::vector<std::size_t> kept_series;
    for (std::size_t i = 0; i < out.size(); ++i) {
      ProcessedRow& p = out[i];
      auto it = baseline.find({groups.series()[series[i]].metric, p.config});
      if (it == baseline.end()) continue;  // inner join: rows without a baseline disappear
      p.normalization_value = it->second;
      p.avg = p.avg / it->second;
      p.normalized = normalize_against;
      kept.push_back(std::move(p));
      kept_series.push_back(series[i]);
    }
    out = std::move(kept);
    series = std::move(kept_series);
  }

  // Geomean of AvgValue over each series' rows, in table order.
  std::vector<std::vector<double>> per_series(groups.series().size());
  for (std::size_t i = 0; i < out.size(); ++i) per_series[series[i]].push_back(out[i].avg);
  std::vector<double> geomeans;
  geomeans.reserve(per_series.size());
  for (const auto& avgs : per_series) geomeans.push_back(stats::geomean(avgs));
  for (std::size_t i = 0; i < out.size(); ++i) out[i].geomean = geomeans[series[i]];
  return out;
}

void apply_stops(const std::vector<ConfigStop>& stops, std::vector<ProcessedRow>& rows) {
  if (stops.empty()) return;
  std::map<std::size_t, std::string> reason;
  for (const auto& s : stops) reason[s.config] = s.reason;
  for (auto& p : rows) {
    const auto it = reason.find(p.config);
    if (it != reason.end()) p.stop_reason = it->second;
  }
}

}  // namespace kscope
