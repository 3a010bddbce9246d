#include "core/transformation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

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
  for (const auto& r : records) {
    for (std::size_t m = 0; m < metrics.size(); ++m) {
      RawRow row;
      row.annotation = r.annotation;
      row.value = r.values[m];
      row.metric = metrics[m];
      row.kernel = r.kernel;
      row.unit = r.units[m];
      row.config = r.run.config;
      row.run = r.run.run;
      rows.push_back(std::move(row));
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
    std::vector<DerivedValue> values = derived[i];
    if (r.failed) {
      for (const auto& n : names) values.push_back({n.first, kNaN, n.second});
    }
    for (const auto& d : values) {
      RawRow row;
      row.annotation = r.annotation;
      row.value = d.value;
      row.metric = d.name;
      row.kernel = r.kernel;
      row.unit = d.unit;
      row.config = r.run.config;
      row.run = r.run.run;
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

std::vector<ProcessedRow> aggregate(const std::vector<RawRow>& raw,
                                    const std::string& normalize_against) {
  using Key = std::tuple<std::string, std::string, std::size_t>;
  std::vector<Key> order;
  std::map<Key, std::vector<const RawRow*>> groups;
  for (const auto& row : raw) {
    Key key{row.annotation, row.metric, row.config};
    auto [it, inserted] = groups.try_emplace(key);
    if (inserted) order.push_back(key);
    it->second.push_back(&row);
  }

  std::vector<ProcessedRow> out;
  out.reserve(order.size());
  for (const auto& key : order) {
    const auto& rows = groups[key];
    std::vector<double> values;
    values.reserve(rows.size());
    for (const auto* r : rows) values.push_back(r->value);
    const auto s = stats::summarize(values);
    ProcessedRow p;
    p.annotation = std::get<0>(key);
    p.metric = std::get<1>(key);
    p.config = std::get<2>(key);
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

  if (!normalize_against.empty()) {
    std::map<std::pair<std::string, std::size_t>, double> baseline;
    std::vector<std::string> annotations;
    for (const auto& p : out) {
      if (std::find(annotations.begin(), annotations.end(), p.annotation) == annotations.end()) {
        annotations.push_back(p.annotation);
      }
      if (p.annotation == normalize_against) baseline[{p.metric, p.config}] = p.avg;
    }
    if (std::find(annotations.begin(), annotations.end(), normalize_against) == annotations.end()) {
      std::string list;
      for (const auto& a : annotations) list += (list.empty() ? "'" : ", '") + a + "'";
      throw InvalidArgument("normalize_against: Annotation '" + normalize_against +
                            "' not found in data. The annotations are: " + list + ".");
    }
    std::vector<ProcessedRow> kept;
    for (auto& p : out) {
      auto it = baseline.find({p.metric, p.config});
      if (it == baseline.end()) continue;  // inner join: rows without a baseline disappear
      p.normalization_value = it->second;
      p.avg = p.avg / it->second;
      p.normalized = normalize_against;
      kept.push_back(std::move(p));
    }
    out = std::move(kept);
  }

  std::map<std::pair<std::string, std::string>, std::vector<double>> per_series;
  for (const auto& p : out) per_series[{p.annotation, p.metric}].push_back(p.avg);
  for (auto& p : out) p.geomean = stats::geomean(per_series[{p.annotation, p.metric}]);
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
