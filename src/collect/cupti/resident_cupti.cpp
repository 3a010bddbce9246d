#include "collect/cupti/resident_cupti.hpp"

#include <chrono>
#include <cstdlib>
#include <future>
#include <mutex>
#include <system_error>

#include "collect/cupti/activity_tracer.hpp"
#include "collect/cupti/kept_range_profiler.hpp"
#include "collect/cupti/launch_callbacks.hpp"

namespace kscope::cupti {
namespace {

std::mutex g_setup_mu;
std::future<void> g_setup;  // start_timing_setup's, until finish_timing_setup() takes it

}  // namespace

void keep_cupti_until_exit() {
  // Registered after ActivityTracer's instance exists, so it runs before that is destroyed, and
  // after CUPTI registered its own exit handlers, so it runs before CUPTI tears down.
  (void)ActivityTracer::instance();
  (void)range_profiler_kept();  // the same for the kept range profiler's keeper
  static std::once_flag once;
  std::call_once(once, [] { std::atexit([] { release_cupti(); }); });
}

void start_timing_setup() {
  const std::lock_guard<std::mutex> lock(g_setup_mu);
  if (g_setup.valid()) {
    if (g_setup.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
    try {
      g_setup.get();  // a set-up no session waited for: its error belongs to no one, try again
    } catch (...) {
    }
  }
  keep_cupti_until_exit();
  try {
    g_setup = std::async(std::launch::async, [] {
      subscribe_process();
      ActivityTracer::instance().enable();
    });
  } catch (const std::system_error&) {
    // No thread to spare: the session sets CUPTI up on its own thread, as without a start.
  }
}

void finish_timing_setup() {
  std::future<void> setup;
  {
    const std::lock_guard<std::mutex> lock(g_setup_mu);
    setup = std::move(g_setup);
  }
  if (setup.valid()) setup.get();
}

void settle_timing_setup() noexcept {
  try {
    finish_timing_setup();
  } catch (...) {
  }
}

void release_cupti() noexcept {
  settle_timing_setup();  // never release under a set-up still running
  release_range_profiler();
  ActivityTracer::instance().release();
  release_launch_callbacks();
}

}  // namespace kscope::cupti
