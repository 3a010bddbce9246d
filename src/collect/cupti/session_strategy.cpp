#include "collect/cupti/session_strategy.hpp"

#include <algorithm>
#include <cmath>

namespace kscope::cupti {

std::size_t first_session_ranges(const CollectionPlan& plan, std::size_t configs, int runs) {
  switch (plan.scope) {
    case SessionScope::kSpan: {
      const double ranges = 2.0 * static_cast<double>(configs) * std::max(runs, 1);
      const auto best = static_cast<std::size_t>(std::ceil(std::sqrt(16.0 * ranges / 0.75)));
      return std::clamp<std::size_t>((best + 15) / 16 * 16, kMinSpanRanges, kMaxInitialSpanRanges);
    }
    case SessionScope::kRun:
      return plan.user_range ? kMinUserRanges : kMinRunRanges;
    case SessionScope::kAnnotation:
      break;
  }
  return plan.decode_per_run ? kMinRunRanges : kMinAnnotationRanges;
}

void SessionStrategy::start_session(const std::string& what) {
  t_.launches.open_session(what);
  try {
    t_.profiler.start();
  } catch (...) {
    (void)t_.launches.close_session(nullptr);
    throw;
  }
  t_.batch.count_session();
}

void SessionStrategy::keep_stopped(std::vector<ProfiledLaunch> launches) {
  (void)launches;
  t_.batch.discard(false);  // a run or span session: its batch cannot be attributed
}

void SessionStrategy::stop_open_session() noexcept {
  std::vector<ProfiledLaunch> launches;
  bool range = false;
  if (!t_.launches.close_session(&launches, nullptr, &range)) return;
  try {
    if (range) t_.profiler.pop_range();
    (void)t_.profiler.stop();
    keep_stopped(std::move(launches));
  } catch (...) {
    t_.batch.discard(false);
  }
}

}  // namespace kscope::cupti
