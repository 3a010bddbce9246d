// Session::run_adaptive: the measured runs of one config under Options::adaptive (runs="auto"),
// in batches decided by the StoppingRule (core/stopping_rule.hpp). Kept apart from the fixed
// run loop of session.cpp.
#include <chrono>
#include <limits>
#include <map>
#include <utility>

#include "core/extraction.hpp"
#include "core/session.hpp"
#include "core/stopping_rule.hpp"
#include "kscope/errors.hpp"

namespace kscope {
namespace {

StopCriteria criteria_of(const AdaptiveRuns& a) {
  StopCriteria c;
  c.target_rel_ci = a.target_rel_ci;
  c.min_runs = static_cast<std::size_t>(a.min_runs);
  c.max_runs = static_cast<std::size_t>(a.max_runs);
  c.time_budget_s = a.time_budget;
  return c;
}

// The values so far of every (annotation, metric) of config `c`, one per measured run, through
// the same extraction as the results (ignore list, combine, failed runs as NaN). An extraction
// error (no kernels, several without combine) gives no series: the config stops, and the
// error is raised with its usual text when the results are built.
std::vector<std::vector<double>> config_series(const Session::Output& out, std::size_t c,
                                               std::size_t runs, const Options& o) {
  std::vector<KernelRecord> records;
  for (const auto& r : out.records) {
    if (r.run.config == c && !r.run.warmup) records.push_back(r);
  }
  std::vector<RunLog> logs;
  for (const auto& l : out.runs) {
    if (l.run.config == c && !l.run.warmup) logs.push_back(l);
  }
  std::vector<ExtractedRecord> extracted;
  try {
    extracted = extract(records, logs, {o.metrics, o.ignore_kernel_list, o.combine_kernel_metrics});
  } catch (const ExtractionError&) {
    return {};
  }
  std::map<std::pair<std::string, std::size_t>, std::vector<double>> series;
  for (const auto& e : extracted) {
    for (std::size_t m = 0; m < e.values.size(); ++m) {
      auto& v = series[{e.annotation, m}];
      if (v.empty()) v.assign(runs, std::numeric_limits<double>::quiet_NaN());
      if (e.run.run < runs) v[e.run.run] = e.values[m];
    }
  }
  std::vector<std::vector<double>> out_series;
  for (auto& [key, values] : series) out_series.push_back(std::move(values));
  return out_series;
}

}  // namespace

void Session::run_adaptive(const Config& config, Sweep& sweep) {
  const std::size_t c = config.index();
  StoppingRule rule(criteria_of(sweep.opt.adaptive));
  const auto start = std::chrono::steady_clock::now();
  std::size_t runs = 0;
  std::size_t batch = rule.first_batch();
  for (;;) {
    for (std::size_t i = 0; i < batch; ++i) {
      recorder_.add(execute(RunId{c, runs++, false}, config, sweep));
    }
    flush_to_sink(sweep.out);  // the batch's values, and the journal keeps them
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (const auto stop =
            rule.after_batch(config_series(sweep.out, c, runs, sweep.opt), runs, elapsed)) {
      ConfigStop s;
      s.config = c;
      s.runs = runs;
      s.reason = to_string(*stop);
      s.rel_ci = rule.rel_ci();
      s.seconds = elapsed;
      recorder_.stop(s);
      sweep.out.stops.push_back(std::move(s));
      sweep.progress.run_done();  // a config of runs="auto" counts as one run in the progress line
      return;
    }
    batch = rule.next_batch();
  }
}

}  // namespace kscope
