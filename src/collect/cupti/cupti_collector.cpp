#include "collect/cupti/cupti_collector.hpp"

#include <cupti.h>

#include "collect/cupti/counter_collector.hpp"
#include "collect/cupti/metric_name_rules.hpp"
#include "collect/cupti/timing_collector.hpp"

namespace kscope::cupti {

void CuptiCollector::check_options(const Options& options) {
  for (const auto& m : options.metrics) check_metric_name_syntax(m);
}

std::string CuptiCollector::version() const {
  uint32_t v = 0;
  if (cuptiGetVersion(&v) != CUPTI_SUCCESS) return "CUPTI";
  return "CUPTI API " + std::to_string(v);
}

void CuptiCollector::begin(const SessionInfo& info) {
  if (needs_range_profiler(*info.options)) {
    path_ = std::make_unique<CounterCollector>(info);
  } else {
    path_ = std::make_unique<TimingCollector>();
  }
}

int CuptiCollector::passes_per_run() const { return path_ ? path_->passes_per_run() : 1; }

void CuptiCollector::prepare_pass(const RunId& run, int pass) { path_->prepare_pass(run, pass); }

void CuptiCollector::before_run(const RunId& run, int pass) { path_->before_run(run, pass); }

void CuptiCollector::after_run(const RunId& run, int pass) { path_->after_run(run, pass); }

std::vector<KernelRecord> CuptiCollector::flush() {
  return path_ ? path_->flush() : std::vector<KernelRecord>{};
}

std::vector<KernelRecord> CuptiCollector::end() {
  std::vector<KernelRecord> out;
  try {
    out = path_ ? path_->end() : std::vector<KernelRecord>{};
  } catch (...) {
    abort();
    throw;
  }
  abort();
  return out;
}

void CuptiCollector::abort() noexcept {
  if (!path_) return;
  path_->abort();
  path_.reset();
}

}  // namespace kscope::cupti
