#pragma once
// What the cupti tool keeps for the process rather than for a session: the CUPTI subscription
// behind the launch callbacks (launch_callbacks.hpp), the kernel activity records
// (activity_tracer.hpp) and the range profiler object of the last counter session. Made by the
// first session that needs them, given up by release_cupti(): kscope::release(), torch.profiler
// (the Python front), and exit. The kernel records and the range profiler are never on together:
// a counter session turns the records off, a timing session disables a kept range profiler.

#include <memory>

namespace kscope::cupti {

class RangeProfiler;

/// Which range profiler object a counter session can reuse: one per context and mode (auto or
/// user range, CUPTI kernel replay or not: switching needs a new object).
struct ProfilerKey {
  void* context = nullptr;
  bool user_range = false;
  bool kernel_replay = false;
  friend bool operator==(const ProfilerKey& a, const ProfilerKey& b) {
    return a.context == b.context && a.user_range == b.user_range && a.kernel_replay == b.kernel_replay;
  }
};

/// The range profiler the previous counter session kept for `key` (still enabled, its capacity
/// fixed by its first Start: ~0.2 s saved), or null; one kept for another key is disabled.
[[nodiscard]] std::unique_ptr<RangeProfiler> take_range_profiler(const ProfilerKey& key);
/// Keeps `profiler` (between sessions: enabled, no session started) for the next counter session.
void keep_range_profiler(std::unique_ptr<RangeProfiler> profiler, const ProfilerKey& key);
/// Disables a kept range profiler (nothing when none is kept). Does not throw.
void release_range_profiler() noexcept;

/// A session is about to use CUPTI: makes sure release_cupti() runs at exit (registered once).
void keep_cupti_until_exit();

/// Disables kernel activity records and unsubscribes the process, so that another CUPTI client
/// (torch.profiler, Nsight Systems attached later) can have CUPTI. Does not throw.
void release_cupti() noexcept;

}  // namespace kscope::cupti
