#include "core/config_failure.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <set>
#include <typeinfo>
#include <utility>

#include "core/demangler.hpp"
#include "kscope/errors.hpp"

namespace kscope {

std::string describe(const ConfigFailure& f) {
  return f.type + ": " + f.message + " (config " + std::to_string(f.config) + ", " +
         (f.warmup ? "warm-up" : "measured") + " run " + std::to_string(f.run) + ")";
}

namespace {

// typeid(e).name() is a mangled type ("St16invalid_argument"); as the name of its typeinfo
// string ("_ZTS" + it) the bounded demangler reads it.
std::string type_name(const std::type_info& type) {
  const std::string prefix = "typeinfo name for ";
  const std::string text = demangle(std::string("_ZTS") + type.name());
  return text.rfind(prefix, 0) == 0 ? text.substr(prefix.size()) : type.name();
}

std::set<std::size_t> failed_configs(const std::vector<ConfigFailure>& failures) {
  std::set<std::size_t> failed;
  for (const auto& f : failures) failed.insert(f.config);
  return failed;
}

}  // namespace

ConfigFailure failure_of(const std::exception_ptr& error, const RunId& run) {
  ConfigFailure f;
  f.config = run.config;
  f.run = run.run;
  f.warmup = run.warmup;
  try {
    std::rethrow_exception(error);
  } catch (const BenchmarkError& e) {
    f.type = e.type();
    f.message = e.what();
  } catch (const std::exception& e) {
    f.type = type_name(typeid(e));
    f.message = e.what();
  } catch (...) {
    f.type = "unknown exception";
  }
  return f;
}

void drop_failed_configs(const std::vector<ConfigFailure>& failures, std::vector<RunLog>* runs) {
  if (failures.empty()) return;
  const std::set<std::size_t> failed = failed_configs(failures);
  runs->erase(std::remove_if(runs->begin(), runs->end(),
                             [&](const RunLog& r) { return failed.count(r.run.config) != 0; }),
              runs->end());
}

std::vector<KernelRecord> records_of_finished_configs(const std::vector<ConfigFailure>& failures,
                                                      const std::vector<KernelRecord>& records) {
  const std::set<std::size_t> failed = failed_configs(failures);
  std::vector<KernelRecord> out;
  for (const auto& k : records) {
    if (failed.count(k.run.config) == 0) out.push_back(k);
  }
  return out;
}

void add_failure_rows(const std::vector<ConfigFailure>& failures,
                      const std::vector<std::string>& metrics, std::size_t info_width,
                      std::vector<ProcessedRow>* processed) {
  if (failures.empty()) return;
  struct Key {
    std::string annotation, metric;
    std::optional<std::string> unit;
  };
  std::vector<Key> keys;  // (annotation, metric) in table order, with the unit of its first row
  for (const auto& p : *processed) {
    const bool known = std::any_of(keys.begin(), keys.end(), [&](const Key& k) {
      return k.annotation == p.annotation && k.metric == p.metric;
    });
    if (!known) keys.push_back({p.annotation, p.metric, p.unit});
  }
  if (keys.empty()) {
    for (const auto& m : metrics) keys.push_back({"", m, std::nullopt});
  }
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  std::vector<ConfigFailure> sorted = failures;
  std::sort(sorted.begin(), sorted.end(),
            [](const ConfigFailure& a, const ConfigFailure& b) { return a.config < b.config; });
  for (const auto& f : sorted) {
    for (const auto& [annotation, metric, unit] : keys) {
      ProcessedRow row;
      row.annotation = annotation;
      row.metric = metric;
      row.unit = unit;
      row.config = f.config;
      row.avg = row.stddev = row.min = row.max = kNaN;
      row.ci95_lower = row.ci95_upper = row.rel_stddev_pct = row.geomean = kNaN;
      row.num_runs = 0;
      row.info.resize(info_width);
      row.error = describe(f);
      // After the rows of this (annotation, metric) with a smaller config, else at its end.
      auto pos = processed->end();
      auto last_of_key = processed->end();
      for (auto it = processed->begin(); it != processed->end(); ++it) {
        if (it->annotation != annotation || it->metric != metric) continue;
        last_of_key = it;
        if (it->config > f.config) {
          pos = it;
          break;
        }
      }
      if (pos == processed->end() && last_of_key != processed->end()) pos = last_of_key + 1;
      processed->insert(pos, std::move(row));
    }
  }
}

std::string failure_summary(const std::vector<ConfigFailure>& failures,
                            const std::vector<Config>& configs) {
  std::string out = std::to_string(failures.size()) + " of " + std::to_string(configs.size()) +
                    " configs failed and have no values (on_config_error 'skip'):";
  for (const auto& f : failures) {
    const std::string label = f.config < configs.size() ? configs[f.config].label() : "?";
    out += "\n  config " + std::to_string(f.config) + " (" + label + "): " + describe(f);
  }
  return out;
}

}  // namespace kscope
