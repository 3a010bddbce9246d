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

// Values (and units, unless null) of one kernel in `metrics` order; a metric the tool did not
// deliver is an error.
void values_of(const KernelRecord& k, const std::vector<std::string>& metrics,
               std::vector<double>* values, std::vector<std::optional<std::string>>* units) {
  values->clear();
  values->reserve(metrics.size());
  if (units) {
    units->clear();
    units->reserve(metrics.size());
  }
  for (const auto& metric : metrics) {
    auto it = std::find_if(k.metrics.begin(), k.metrics.end(),
                           [&](const Measurement& m) { return m.metric == metric; });
    if (it == k.metrics.end()) {
      throw ExtractionError("metric '" + metric + "' is missing from the measurement of kernel '" +
                            k.kernel + "' in annotation '" + k.annotation + "' (" + run_text(k.run) +
                            "); the tool did not deliver it");
    }
    values->push_back(it->value);
    if (units) units->push_back(it->unit);
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
  std::size_t rows = 0;
  for (const auto& a : groups) rows += a.runs.size();
  out.reserve(rows);
  std::vector<double> values;  // of a failed run's kernel, of a combined kernel after the first
  for (const auto& a : groups) {
    const std::string& name = a.name;
    std::size_t total = 0, measured_runs = 0;
    for (const auto& run : a.runs) {
      if (run.failed) continue;
      total += run.count;
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

    for (const auto& run : a.runs) {
      out.emplace_back();
      ExtractedRecord& e = out.back();
      e.annotation = name;
      e.run = run.id;
      const auto ks = a.kernels(run);
      for (std::size_t i = 0; i < ks.size(); ++i) {
        if (i) e.kernel += '|';
        e.kernel += ks[i]->kernel;
      }
      if (run.failed || ks.empty()) {
        e.failed = true;
        e.values.assign(settings.metrics.size(), kNaN);
        e.units.assign(settings.metrics.size(), std::nullopt);
        if (!ks.empty()) values_of(*ks.front(), settings.metrics, &values, &e.units);  // units kept
      } else {
        values_of(*ks.front(), settings.metrics, &e.values, &e.units);
        for (std::size_t i = 1; i < ks.size(); ++i) {
          values_of(*ks[i], settings.metrics, &values, nullptr);
          for (std::size_t m = 0; m < values.size(); ++m) {
            e.values[m] = settings.combine(e.values[m], values[m]);
          }
        }
      }
    }
  }
  return out;
}

}  // namespace kscope
