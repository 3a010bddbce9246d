#include "collect/cupti/timing_collector.hpp"

#include "collect/cupti/activity_tracer.hpp"

#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string_view>
#include <utility>

#include "collect/cupti/launch_metrics.hpp"
#include "collect/cupti/resident_cupti.hpp"
#include "core/host_clock.hpp"
#include "cuda/device_attributes.hpp"

namespace kscope::cupti {
namespace {

// KSCOPE_CUPTI_FLUSH (docs/environment.md): "forced" forces every flush; unset (or anything
// else), CUPTI's complete buffers come first and a flush is forced only when a record is
// missing. On the H200 that made a warm kscope::time call 47 us instead of 221-287 us.
bool completed_flush_first() {
  static const bool completed = [] {
    const char* v = std::getenv("KSCOPE_CUPTI_FLUSH");
    return v == nullptr || std::string_view(v) != "forced";
  }();
  return completed;
}

}  // namespace

TimingCollector::TimingCollector(std::vector<std::string> launch_metrics)
    : launch_metrics_(std::move(launch_metrics)) {
  joiner_.clear();
  keep_cupti_until_exit();
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

void TimingCollector::before_run(const RunId& run, int pass) {
  (void)run;
  (void)pass;
  ran_since_flush_ = true;
}

std::vector<KernelRecord> TimingCollector::flush() {
  if (!active_) return {};
  ran_since_flush_ = false;
  // First the buffers CUPTI counts complete, then a forced flush only if a launch of the
  // session's runs still has no record, so that nothing is missed (KSCOPE_CUPTI_FLUSH=forced:
  // always forced).
  std::vector<KernelRecord> out = join(ActivityTracer::instance().flush(!completed_flush_first()));
  if (completed_flush_first() && joiner_.pending_launches() > 0) {
    std::vector<KernelRecord> rest = join(ActivityTracer::instance().flush(true));
    out.insert(out.end(), std::make_move_iterator(rest.begin()), std::make_move_iterator(rest.end()));
  }
  return out;
}

std::vector<KernelRecord> TimingCollector::join(std::vector<KernelActivity> kernels) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<KernelRecord> out =
      launch_metrics_.empty()
          ? joiner_.join(std::move(kernels))
          : joiner_.join(std::move(kernels), [this](const KernelActivity& a, KernelRecord& r) {
              add_launch_metrics(a, r);
            });
  join_ += std::chrono::steady_clock::now() - t0;
  return out;
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
  auto out = ran_since_flush_ ? flush() : std::vector<KernelRecord>{};
  const ActivityTracer::FlushCost cost = ActivityTracer::instance().cost();
  char line[192];
  std::snprintf(line, sizeof line,
                "[cupti] the session's %zu flushes (ms): CUPTI's flush %.2f, of which decoding "
                "%.2f (%zu kernel records; decoding on CUPTI's thread included), joining %.2f",
                cost.flushes, milliseconds(cost.flush), milliseconds(cost.decode), cost.records,
                milliseconds(join_));
  cost_summary_ = line;
  flush_kernels_seen_ = joiner_.flush_kernels();
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
