#include "core/extraction.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/annotation_runs.hpp"
#include "core/kernel_count_check.hpp"
#include "kscope/errors.hpp"

namespace kscope {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string run_text(const RunId& r) {
  return "config " + std::to_string(r.config) + " run " + std::to_string(r.run);
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

}  // namespace

std::vector<std::string> config_labels(const std::vector<Config>& configs) {
  // By Config::index(), the number runs carry: `configs` may be a part of a sweep (resume).
  std::vector<std::string> labels;
  for (const auto& c : configs) {
    if (c.index() >= labels.size()) labels.resize(c.index() + 1);
    labels[c.index()] = c.label();
  }
  return labels;
}

std::vector<ExtractedRecord> extract(const std::vector<KernelRecord>& records,
                                     const std::vector<RunLog>& runs,
                                     const ExtractionSettings& settings) {
  const auto groups = group_annotation_runs(records, runs, settings.ignore_kernel_list);
  KernelCountCheck counts(static_cast<bool>(settings.combine), settings.config_labels);
  std::vector<ExtractedRecord> out;
  for (const auto& a : groups) {
    const std::string& name = a.name;
    std::size_t total = 0, measured_runs = 0;
    for (const auto& run : a.order) {
      if (a.failed.count(run)) continue;
      total += a.kernels.at(run).size();
      ++measured_runs;
    }
    if (measured_runs > 0 && total == 0) {
      throw ExtractionError(
          "No kernels were profiled in annotation '" + name + "' (entered in " +
          std::to_string(measured_runs) +
          " runs). Only kernels launched while the annotation is open are measured; copies "
          "between tensors of the same dtype are memcpys, not kernels; kernels named in "
          "ignore_kernel_list are dropped.");
    }
    counts.check(a);

    for (const auto& run : a.order) {
      ExtractedRecord e;
      e.annotation = name;
      e.run = run;
      const auto& ks = a.kernels.at(run);
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
