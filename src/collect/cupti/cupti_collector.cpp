#include "collect/cupti/cupti_collector.hpp"

#include <cupti.h>

#include "collect/cupti/activity_tracer.hpp"
#include "collect/cupti/cupti_check.hpp"
#include "kscope/errors.hpp"

namespace kscope::cupti {

void CuptiCollector::check_options(const Options& options) {
  for (const auto& m : options.metrics) {
    if (m != kTimeMetric) {
      throw NotSupportedError("metric '" + m +
                              "' needs hardware counters: the cupti tool of this build measures "
                              "only 'gpu__time_duration.sum'. Use tool 'ncu' to collect it.");
    }
  }
  if (options.replay_mode == "range") {
    throw NotSupportedError(
        "replay_mode 'range' is not supported by the cupti tool of this build; use tool 'ncu' "
        "or replay_mode 'kernel'.");
  }
}

std::string CuptiCollector::version() const {
  uint32_t v = 0;
  if (cuptiGetVersion(&v) != CUPTI_SUCCESS) return "CUPTI";
  return "CUPTI API " + std::to_string(v);
}

void CuptiCollector::begin(const SessionInfo& /*info*/) {
  joiner_.clear();
  callbacks_.subscribe(&joiner_);
  try {
    ActivityTracer::instance().enable();
  } catch (...) {
    callbacks_.unsubscribe();
    throw;
  }
  active_ = true;
}

std::vector<KernelRecord> CuptiCollector::flush() {
  if (!active_) return {};
  return joiner_.join(ActivityTracer::instance().flush());
}

std::vector<KernelRecord> CuptiCollector::end() {
  std::vector<KernelRecord> out;
  try {
    out = flush();
  } catch (...) {
    abort();
    throw;
  }
  abort();
  return out;
}

void CuptiCollector::abort() noexcept {
  if (!active_) return;
  ActivityTracer::instance().disable();
  callbacks_.unsubscribe();
  joiner_.clear();
  active_ = false;
}

}  // namespace kscope::cupti
