#include "core/extraction.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "core/kernel_name.hpp"
#include "core/number_format.hpp"
#include "kscope/errors.hpp"

namespace kscope {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool ignored(const KernelRecord& k, const std::vector<std::string>& ignore) {
  for (const auto& pattern : ignore) {
    if (kernel_name_matches(k.kernel, pattern) ||
        (!k.mangled.empty() && kernel_name_matches(k.mangled, pattern))) {
      return true;
    }
  }
  return false;
}

std::string run_text(const RunId& r) {
  return "config " + std::to_string(r.config) + " run " + std::to_string(r.run);
}

std::string format_average(double x) {
  std::string s = format_general(x, 10);
  if (s.find('.') == std::string::npos && s.find('e') == std::string::npos) s += ".0";
  return s;
}

// Values of one kernel in `metrics` order; a metric the tool did not deliver is an error.
void values_of(const KernelRecord& k, const std::vector<std::string>& metrics,
               std::vector<double>* values, std::vector<std::optional<std::string>>* units) {
  values->assign(metrics.size(), kNaN);
  units->assign(metrics.size(), std::nullopt);
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    auto it = std::find_if(k.metrics.begin(), k.metrics.end(),
                           [&](const Measurement& m) { return m.metric == metrics[i]; });
    if (it == k.metrics.end()) {
      throw ExtractionError("metric '" + metrics[i] + "' is missing from the measurement of kernel '" +
                            k.kernel + "' in annotation '" + k.annotation + "' (" + run_text(k.run) +
                            "); the tool did not deliver it");
    }
    (*values)[i] = it->value;
    (*units)[i] = it->unit;
  }
}

struct AnnotationRuns {
  std::vector<RunId> order;                                  // runs in which it appeared
  std::map<RunId, std::vector<const KernelRecord*>> kernels;  // per run, launch order
  std::set<RunId> failed;
};

}  // namespace

std::vector<ExtractedRecord> extract(const std::vector<KernelRecord>& records,
                                     const std::vector<RunLog>& runs,
                                     const ExtractionSettings& settings) {
  std::vector<std::string> names;  // first-appearance order
  std::map<std::string, AnnotationRuns> by_name;
  auto touch = [&](const std::string& name, const RunId& run) -> AnnotationRuns& {
    auto [it, inserted] = by_name.try_emplace(name);
    if (inserted) names.push_back(name);
    auto& a = it->second;
    if (a.kernels.find(run) == a.kernels.end()) {
      a.kernels[run];
      a.order.push_back(run);
    }
    return a;
  };

  std::vector<RunLog> ordered_runs = runs;
  std::stable_sort(ordered_runs.begin(), ordered_runs.end(),
                   [](const RunLog& a, const RunLog& b) { return a.run < b.run; });
  for (const auto& log : ordered_runs) {
    if (log.run.warmup) continue;
    for (const auto& name : log.entered) touch(name, log.run);
    for (const auto& name : log.failed) touch(name, log.run).failed.insert(log.run);
  }
  std::vector<const KernelRecord*> sorted;
  for (const auto& r : records) {
    if (!r.run.warmup && !r.annotation.empty()) sorted.push_back(&r);
  }
  std::stable_sort(sorted.begin(), sorted.end(), [](const KernelRecord* a, const KernelRecord* b) {
    if (!(a->run == b->run)) return a->run < b->run;
    return a->sequence < b->sequence;
  });
  for (const KernelRecord* r : sorted) {
    auto& a = touch(r->annotation, r->run);
    if (!ignored(*r, settings.ignore_kernel_list)) a.kernels[r->run].push_back(r);
  }

  std::vector<ExtractedRecord> out;
  for (const auto& name : names) {
    auto& a = by_name[name];
    std::sort(a.order.begin(), a.order.end());
    // Kernel counts over the runs that did not fail. Runs of one config must agree; configs
    // may differ (a library can pick another algorithm, e.g. a split-K GEMM, at another size).
    std::size_t total = 0, measured_runs = 0, per_run = 0;
    std::map<std::size_t, std::map<std::size_t, std::vector<RunId>>> by_config;  // config -> count -> runs
    std::set<std::string> kernel_names;
    for (const auto& run : a.order) {
      if (a.failed.count(run)) continue;
      const auto& ks = a.kernels[run];
      total += ks.size();
      ++measured_runs;
      per_run = std::max(per_run, ks.size());
      by_config[run.config][ks.size()].push_back(run);
      for (const auto* k : ks) kernel_names.insert(k->kernel);
    }
    if (measured_runs > 0 && total == 0) {
      throw ExtractionError(
          "No kernels were profiled in annotation '" + name + "' (entered in " +
          std::to_string(measured_runs) +
          " runs). Only kernels launched while the annotation is open are measured; copies "
          "between tensors of the same dtype are memcpys, not kernels; kernels named in "
          "ignore_kernel_list are dropped.");
    }
    for (const auto& [config, runs_by_count] : by_config) {
      if (runs_by_count.size() < 2) continue;
      std::size_t config_total = 0, config_runs = 0;
      std::string detail;
      for (const auto& [count, rs] : runs_by_count) {
        config_total += count * rs.size();
        config_runs += rs.size();
        detail += "\n  " + std::to_string(count) + " kernel(s) in " + std::to_string(rs.size()) +
                  " run(s), e.g. " + run_text(rs.front());
      }
      throw ExtractionError(
          "Expect same number of kernels per run. Got average of " +
          format_average(static_cast<double>(config_total) / static_cast<double>(config_runs)) +
          " per run in annotation '" + name + "', config " + std::to_string(config) + ":" + detail +
          "\nKernels launched only in some runs (autotuning, lazy initialisation) belong in "
          "warm-up runs (warmup_runs) or outside the annotation.");
    }
    if (per_run > 1 && !settings.combine) {
      std::string list;
      for (const auto& k : kernel_names) list += "\n" + k;
      throw ExtractionError(
          "More than one (total=" + std::to_string(per_run) + ") kernel is launched within the " +
          name +
          " annotation.\nWe expect one kernel per annotation.\nTry one of the following "
          "solutions:\n  - Use `replay_mode='range'` to measure the annotated range as one "
          "result\n  - Use `combine_kernel_metrics = lambda x, y: ...` (C++: "
          "Options::combine_kernel_metrics) to combine the kernels' values, e.g. their sum\n"
          "  - Add some of the kernels to the ignore_kernel_list\nKernels are:" +
          list);
    }

    for (const auto& run : a.order) {
      ExtractedRecord e;
      e.annotation = name;
      e.run = run;
      const auto& ks = a.kernels[run];
      for (std::size_t i = 0; i < ks.size(); ++i) e.kernel += (i ? "|" : "") + ks[i]->kernel;
      if (a.failed.count(run) || ks.empty()) {
        e.failed = true;
        e.values.assign(settings.metrics.size(), kNaN);
        e.units.assign(settings.metrics.size(), std::nullopt);
        if (!ks.empty()) {  // keep units when the kernels were measured
          std::vector<double> ignored_values;
          values_of(*ks.front(), settings.metrics, &ignored_values, &e.units);
        }
      } else {
        values_of(*ks.front(), settings.metrics, &e.values, &e.units);
        for (std::size_t i = 1; i < ks.size(); ++i) {
          std::vector<double> v;
          std::vector<std::optional<std::string>> u;
          values_of(*ks[i], settings.metrics, &v, &u);
          for (std::size_t m = 0; m < v.size(); ++m) e.values[m] = settings.combine(e.values[m], v[m]);
        }
      }
      out.push_back(std::move(e));
    }
  }
  return out;
}

}  // namespace kscope
