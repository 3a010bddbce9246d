#include "collect/cupti/timing_collector.hpp"

#include "collect/cupti/activity_tracer.hpp"

namespace kscope::cupti {

TimingCollector::TimingCollector() {
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

TimingCollector::~TimingCollector() { abort(); }

std::vector<KernelRecord> TimingCollector::flush() {
  if (!active_) return {};
  return joiner_.join(ActivityTracer::instance().flush());
}

std::vector<KernelRecord> TimingCollector::end() {
  auto out = flush();
  abort();
  return out;
}

void TimingCollector::abort() noexcept {
  if (!active_) return;
  ActivityTracer::instance().disable();
  callbacks_.unsubscribe();
  joiner_.clear();
  active_ = false;
}

}  // namespace kscope::cupti
