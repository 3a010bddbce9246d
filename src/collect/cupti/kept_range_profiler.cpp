#include "collect/cupti/kept_range_profiler.hpp"

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>

#include "kscope/errors.hpp"

namespace kscope::cupti {
namespace {

using Clock = std::chrono::steady_clock;

// The kept object and the keeper's thread. The object is disabled under the lock, so that a
// session taking or making one never overlaps a Disable on the same context.
struct Keeper {
  std::mutex mu;
  std::condition_variable wake;
  std::unique_ptr<RangeProfilerApi> profiler;
  ProfilerKey key;
  Clock::time_point deadline;
  std::thread thread;
  bool stop = false;

  ~Keeper() { shut_down(); }

  // Disables the kept object, if any; with `mu` held.
  void drop() noexcept { profiler.reset(); }

  void run() {
    std::unique_lock<std::mutex> lock(mu);
    while (!stop) {
      if (!profiler) {
        wake.wait(lock);
      } else if (Clock::now() >= deadline) {
        drop();
      } else {
        wake.wait_until(lock, deadline);
      }
    }
  }

  void shut_down() noexcept {
    std::thread t;
    {
      const std::lock_guard<std::mutex> lock(mu);
      drop();
      stop = true;
      t = std::move(thread);
    }
    wake.notify_all();
    if (t.joinable()) t.join();
    const std::lock_guard<std::mutex> lock(mu);
    stop = false;
  }
};

Keeper& keeper() {
  static Keeper k;
  return k;
}

}  // namespace

double keep_counters_seconds() {
  const char* raw = std::getenv("KSCOPE_KEEP_COUNTERS_S");
  const std::string v = raw ? raw : "";
  if (v.empty()) return 0;
  char* end = nullptr;
  const double s = std::strtod(v.c_str(), &end);
  if (end == v.c_str() || *end != '\0' || !std::isfinite(s) || s < 0) {
    throw InvalidArgument("Invalid KSCOPE_KEEP_COUNTERS_S '" + v +
                          "'. Expected the seconds a metrics sweep's range profiler stays enabled "
                          "for the next one (a number >= 0; 0 or unset: not kept).");
  }
  return s;
}

std::unique_ptr<RangeProfilerApi> take_range_profiler(const ProfilerKey& key) {
  Keeper& k = keeper();
  const std::lock_guard<std::mutex> lock(k.mu);
  if (k.profiler && k.key == key) return std::move(k.profiler);
  k.drop();
  return nullptr;
}

void keep_range_profiler(std::unique_ptr<RangeProfilerApi> profiler, ProfilerKey key, double seconds) {
  profiler->start_session(nullptr);  // its trace sink belongs to the session that ended
  Keeper& k = keeper();
  {
    const std::lock_guard<std::mutex> lock(k.mu);
    k.drop();
    k.profiler = std::move(profiler);
    k.key = std::move(key);
    k.deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                    std::chrono::duration<double>(seconds));
    if (!k.thread.joinable()) {
      try {
        k.thread = std::thread([&k] { k.run(); });
      } catch (const std::system_error&) {
        k.drop();  // no thread to disable it in time: not kept
      }
    }
  }
  k.wake.notify_all();
}

void release_range_profiler() noexcept { keeper().shut_down(); }

bool range_profiler_kept() {
  Keeper& k = keeper();
  const std::lock_guard<std::mutex> lock(k.mu);
  return k.profiler != nullptr;
}

}  // namespace kscope::cupti
