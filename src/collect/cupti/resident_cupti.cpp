#include "collect/cupti/resident_cupti.hpp"

#include <cstdlib>
#include <mutex>

#include "collect/cupti/activity_tracer.hpp"
#include "collect/cupti/kept_range_profiler.hpp"
#include "collect/cupti/launch_callbacks.hpp"

namespace kscope::cupti {

void keep_cupti_until_exit() {
  // Registered after ActivityTracer's instance exists, so it runs before that is destroyed, and
  // after CUPTI registered its own exit handlers, so it runs before CUPTI tears down.
  (void)ActivityTracer::instance();
  (void)range_profiler_kept();  // the same for the kept range profiler's keeper
  static std::once_flag once;
  std::call_once(once, [] { std::atexit([] { release_cupti(); }); });
}

void release_cupti() noexcept {
  release_range_profiler();
  ActivityTracer::instance().release();
  release_launch_callbacks();
}

}  // namespace kscope::cupti
