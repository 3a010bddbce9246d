#include "collect/cupti/cupti_collector.hpp"

#include <cupti.h>

#include "collect/cupti/activity_tracer.hpp"
#include "collect/cupti/cupti_check.hpp"
#include "collect/cupti/metric_name_rules.hpp"
#include "kscope/errors.hpp"

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
    counters_ = std::make_unique<CounterCollector>(info);
    active_ = true;
    return;
  }
  joiner_.clear();
  callbacks_.subscribe(&timing_);
  try {
    ActivityTracer::instance().enable();
  } catch (...) {
    callbacks_.unsubscribe();
    throw;
  }
  active_ = true;
}

int CuptiCollector::passes_per_run() const { return counters_ ? counters_->passes_per_run() : 1; }

void CuptiCollector::prepare_pass(const RunId& run, int pass) {
  if (counters_) counters_->prepare_pass(run, pass);
}

void CuptiCollector::before_run(const RunId& run, int pass) {
  if (counters_) counters_->before_run(run, pass);
}

void CuptiCollector::after_run(const RunId& run, int pass) {
  if (counters_) counters_->after_run(run, pass);
}

std::vector<KernelRecord> CuptiCollector::flush() {
  if (!active_) return {};
  if (counters_) return counters_->flush();
  return joiner_.join(ActivityTracer::instance().flush());
}

std::vector<KernelRecord> CuptiCollector::end() {
  std::vector<KernelRecord> out;
  try {
    out = counters_ ? counters_->end() : flush();
  } catch (...) {
    abort();
    throw;
  }
  abort();
  return out;
}

void CuptiCollector::abort() noexcept {
  if (!active_) return;
  if (counters_) {
    counters_->abort();
    counters_.reset();
  } else {
    ActivityTracer::instance().disable();
    callbacks_.unsubscribe();
    joiner_.clear();
  }
  active_ = false;
}

}  // namespace kscope::cupti
