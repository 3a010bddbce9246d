#pragma once
// The range profiler object of the last counter session, kept enabled for the next one when
// KSCOPE_KEEP_COUNTERS_S asks for it (docs/environment.md). A kept object skips Enable and the
// expensive first Start (~0.2 s on the H200, most of a second metrics call).
//
// It is reused only in the state a fresh session would set up (ProfilerKey: context, range and
// replay mode, metric set, ranges per pass), and with the config and counter data buffers it
// was set up with, which it holds while kept (CounterBatch::adopt_profiler_images): on the H200
// an object reconfigured with new buffers crashed the process, and an earlier try that reused
// one for another metric set got no values. While enabled it holds the device's performance
// counters: Nsight Compute in another process cannot profile that GPU (it exits with status 9).
// So it is off by default, and disabled by the next counter session that needs another object,
// by a timing session (kernel records and the range profiler are never on together), by
// release_cupti() (kscope::release(), the re-executing tools, torch.profiler, exit), and by a
// thread of its own once it has been kept for the keep time.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "collect/cupti/range_profiler_api.hpp"

namespace kscope::cupti {

/// Which kept object a counter session can reuse.
struct ProfilerKey {
  void* context = nullptr;  ///< CUcontext
  bool user_range = false;
  bool kernel_replay = false;
  std::size_t ranges = 0;            ///< ranges per pass its first Start fixed
  std::vector<std::uint8_t> config;  ///< the metric set's config image
  friend bool operator==(const ProfilerKey& a, const ProfilerKey& b) {
    return a.context == b.context && a.user_range == b.user_range &&
           a.kernel_replay == b.kernel_replay && a.ranges == b.ranges && a.config == b.config;
  }
};

/// Seconds to keep a counter session's range profiler after the session (KSCOPE_KEEP_COUNTERS_S;
/// unset or empty: 0, not kept). Throws InvalidArgument naming a value that is not a
/// non-negative number of seconds.
[[nodiscard]] double keep_counters_seconds();

/// The object kept for `key` (enabled, between sessions, no trace sink), or null; an object kept
/// for another key is disabled first.
[[nodiscard]] std::unique_ptr<RangeProfilerApi> take_range_profiler(const ProfilerKey& key);
/// Keeps `profiler` (enabled, no session started) for `seconds` (> 0), replacing any kept one;
/// its trace sink is cleared. The keeper's thread disables it when the time is up.
void keep_range_profiler(std::unique_ptr<RangeProfilerApi> profiler, ProfilerKey key, double seconds);
/// Disables a kept object now (nothing when none is kept) and stops the keeper's thread. Does not
/// throw.
void release_range_profiler() noexcept;
/// Whether an object is kept now.
[[nodiscard]] bool range_profiler_kept();

}  // namespace kscope::cupti
