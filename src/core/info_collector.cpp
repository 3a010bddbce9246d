#include "kscope/info_collector.hpp"

#include <algorithm>
#include <set>

namespace kscope {
namespace {

constexpr const char* kAggregates[] = {"_Avg", "_Std", "_Min", "_Max"};

// Python's repr of a list of str: ['a', 'b'] (nsight-python prints the reserved names so).
std::string python_list(const std::vector<std::string>& names) {
  std::string out = "[";
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", '" : "'") + names[i] + "'";
  return out + "]";
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The processed columns a collector may get: its aggregates when its values turn out numeric.
std::vector<std::string> aggregate_columns(const InfoCollector& c) {
  if (c.scope == CollectionScope::kOnce) return {};
  std::vector<std::string> out;
  for (const char* suffix : kAggregates) out.push_back(c.name + suffix);
  return out;
}

void check_reserved(const InfoCollector& c) {
  const auto& reserved = reserved_column_names();
  const std::string list = python_list(reserved);
  if (contains(reserved, c.name)) {
    throw InvalidArgument("Info collector name '" + c.name +
                          "' collides with a reserved profiler column. Reserved names: " + list +
                          ".");
  }
  for (const auto& column : aggregate_columns(c)) {
    if (contains(reserved, column)) {
      throw InvalidArgument("Info collector name '" + c.name +
                            "' collides with a reserved profiler column through its column '" +
                            column + "'. Reserved names: " + list + ".");
    }
  }
}

}  // namespace

const char* scope_name(CollectionScope scope) {
  switch (scope) {
    case CollectionScope::kOnce: return "once";
    case CollectionScope::kConfig: return "config";
    case CollectionScope::kRun: return "run";
    case CollectionScope::kAnnotation: return "annotation";
  }
  return "?";
}

std::optional<CollectionScope> scope_from_name(std::string_view name) {
  for (auto scope : {CollectionScope::kOnce, CollectionScope::kConfig, CollectionScope::kRun,
                     CollectionScope::kAnnotation}) {
    if (name == scope_name(scope)) return scope;
  }
  return std::nullopt;
}

InfoCollector InfoCollector::once(std::string name, std::function<InfoValue()> fn) {
  return {std::move(name), CollectionScope::kOnce,
          [fn = std::move(fn)](const InfoCall&) { return fn(); }};
}

InfoCollector InfoCollector::per_config(std::string name,
                                        std::function<InfoValue(const Config&)> fn) {
  return {std::move(name), CollectionScope::kConfig,
          [fn = std::move(fn)](const InfoCall& call) { return fn(*call.config); }};
}

InfoCollector InfoCollector::per_run(std::string name, std::function<InfoValue(const Config&)> fn) {
  return {std::move(name), CollectionScope::kRun,
          [fn = std::move(fn)](const InfoCall& call) { return fn(*call.config); }};
}

InfoCollector InfoCollector::per_annotation(
    std::string name, std::function<InfoValue(std::string_view, const Config&)> fn) {
  return {std::move(name), CollectionScope::kAnnotation,
          [fn = std::move(fn)](const InfoCall& call) { return fn(call.annotation, *call.config); }};
}

const std::vector<std::string>& reserved_column_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v = {
        // nsight-python's columns (raw and processed tables)
        "Annotation", "Value", "Metric", "Kernel", "GPU", "Host", "ComputeClock", "MemoryClock",
        "Unit", "AvgValue", "StdDev", "MinValue", "MaxValue", "NumRuns", "CI95_Lower",
        "CI95_Upper", "RelativeStdDevPct", "StableMeasurement", "Geomean", "Normalized",
        "NormalizationValue",
        // kscope's telemetry columns of the processed table
        "ClockMHz_Min", "TempC_Max", "PowerW_Avg", "Throttled",
        // kscope's quantile columns of the processed table
        "Median", "Q1", "Q3"};
    std::sort(v.begin(), v.end());
    return v;
  }();
  return names;
}

void validate_info_collectors(const std::vector<InfoCollector>& collectors,
                              const std::vector<std::string>& parameters,
                              std::string_view function) {
  std::set<std::string> seen;
  for (const auto& c : collectors) {
    if (c.name.empty()) {
      throw InvalidArgument("Info collector names must not be empty: the name becomes the column "
                            "name.");
    }
    if (!c.callback) throw InvalidArgument("Info collector '" + c.name + "' has no callback.");
    if (!seen.insert(c.name).second) {
      throw InvalidArgument("Duplicate info collector name '" + c.name +
                            "'. Each collector must have a unique name (the function name "
                            "becomes the column name).");
    }
    check_reserved(c);
  }
  for (const auto& c : collectors) {
    for (const auto& column : aggregate_columns(c)) {
      if (seen.count(column)) {
        throw InvalidArgument("Info collector name '" + column + "' collides with the column '" +
                              column + "' of info collector '" + c.name +
                              "' (an aggregate of its values). Rename one of the collectors.");
      }
    }
  }
  for (const auto& c : collectors) {
    std::vector<std::string> columns = {c.name};
    for (auto& a : aggregate_columns(c)) columns.push_back(std::move(a));
    for (const auto& column : columns) {
      if (!contains(parameters, column)) continue;
      throw InvalidArgument(
          "Info collector name '" + c.name + "' collides with a parameter of '" +
          std::string(function) + "'" + (column == c.name ? "" : " (its column '" + column + "')") +
          ". Rename the collector so it does not shadow a function argument column.");
    }
  }
}

std::vector<std::string> raw_info_columns(const std::vector<InfoColumn>& columns) {
  std::vector<std::string> out;
  for (const auto& c : columns) out.push_back(c.name);
  return out;
}

std::vector<std::string> processed_info_columns(const std::vector<InfoColumn>& columns) {
  std::vector<std::string> out;
  for (const auto& c : columns) {
    if (!c.aggregated) {
      out.push_back(c.name);
      continue;
    }
    for (const char* suffix : kAggregates) out.push_back(c.name + suffix);
  }
  return out;
}

}  // namespace kscope
