#include "collect/cupti/resident_cupti.hpp"

#include <cstdlib>
#include <mutex>

#include "collect/cupti/activity_tracer.hpp"
#include "collect/cupti/launch_callbacks.hpp"
#include "collect/cupti/range_profiler.hpp"

namespace kscope::cupti {
namespace {

struct KeptProfiler {
  std::mutex mu;
  std::unique_ptr<RangeProfiler> profiler;
  ProfilerKey key;
};

KeptProfiler& kept() {
  static KeptProfiler k;
  return k;
}

}  // namespace

std::unique_ptr<RangeProfiler> take_range_profiler(const ProfilerKey& key) {
  KeptProfiler& k = kept();
  std::unique_ptr<RangeProfiler> other;  // disabled outside the lock
  const std::lock_guard<std::mutex> lock(k.mu);
  if (k.profiler && k.key == key) return std::move(k.profiler);
  other = std::move(k.profiler);
  return nullptr;
}

void keep_range_profiler(std::unique_ptr<RangeProfiler> profiler, const ProfilerKey& key) {
  KeptProfiler& k = kept();
  std::unique_ptr<RangeProfiler> previous;
  const std::lock_guard<std::mutex> lock(k.mu);
  previous = std::move(k.profiler);
  k.profiler = std::move(profiler);
  k.key = key;
}

void release_range_profiler() noexcept {
  KeptProfiler& k = kept();
  std::unique_ptr<RangeProfiler> profiler;
  {
    const std::lock_guard<std::mutex> lock(k.mu);
    profiler = std::move(k.profiler);
  }
  profiler.reset();  // cuptiRangeProfilerDisable
}

void keep_cupti_until_exit() {
  // Registered after ActivityTracer's instance exists, so it runs before that is destroyed, and
  // after CUPTI registered its own exit handlers, so it runs before CUPTI tears down.
  (void)ActivityTracer::instance();
  (void)kept();
  static std::once_flag once;
  std::call_once(once, [] { std::atexit([] { release_cupti(); }); });
}

void release_cupti() noexcept {
  release_range_profiler();
  ActivityTracer::instance().release();
  release_launch_callbacks();
}

}  // namespace kscope::cupti
