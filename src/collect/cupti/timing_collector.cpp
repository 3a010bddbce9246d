#include "collect/cupti/timing_collector.hpp"

#include "collect/cupti/activity_tracer.hpp"

#include <utility>

#include "collect/cupti/launch_metrics.hpp"
#include "collect/cupti/resident_cupti.hpp"
#include "cuda/device_attributes.hpp"

namespace kscope::cupti {

TimingCollector::TimingCollector(std::vector<std::string> launch_metrics)
    : launch_metrics_(std::move(launch_metrics)) {
  joiner_.clear();
  keep_cupti_until_exit();
  finish_timing_setup();  // CuptiCollector's constructor started it
  callbacks_.subscribe(&timing_);
  try {
    ActivityTracer::instance().attach();
  } catch (...) {
    callbacks_.unsubscribe();
    throw;
  }
  active_ = true;
}

TimingCollector::~TimingCollector() { abort(); }

std::vector<KernelRecord> TimingCollector::flush() {
  if (!active_) return {};
  if (launch_metrics_.empty()) return joiner_.join(ActivityTracer::instance().flush());
  return joiner_.join(ActivityTracer::instance().flush(),
                      [this](const KernelActivity& a, KernelRecord& r) { add_launch_metrics(a, r); });
}

void TimingCollector::add_launch_metrics(const KernelActivity& activity, KernelRecord& record) {
  auto it = attributes_.find(activity.device);
  if (it == attributes_.end()) {
    it = attributes_.emplace(activity.device, cuda::read_device_attributes(activity.device)).first;
  }
  for (const auto& m : launch_metrics_) {
    record.metrics.push_back(launch_measurement(m, &activity.launch, it->second));
  }
}

std::vector<KernelRecord> TimingCollector::end() {
  auto out = flush();
  abort();
  return out;
}

void TimingCollector::abort() noexcept {
  if (!active_) return;
  ActivityTracer::instance().detach();
  callbacks_.unsubscribe();
  joiner_.clear();
  active_ = false;
}

}  // namespace kscope::cupti
