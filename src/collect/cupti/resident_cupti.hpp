#pragma once
// What the cupti tool keeps for the process rather than for a session: the CUPTI subscription
// behind the launch callbacks (launch_callbacks.hpp), the kernel activity records
// (activity_tracer.hpp) and, when asked for, a counter session's range profiler
// (kept_range_profiler.hpp). Made by the first session, given up by release_cupti():
// kscope::release(), before the re-executing tools start, and at exit.

namespace kscope::cupti {

/// A session is about to use CUPTI: makes sure release_cupti() runs at exit (registered once).
void keep_cupti_until_exit();
/// Starts setting up the timing path's resident part (the subscription and the kernel activity
/// records, ~12-20 ms in a process's first session on the H200; a kept range profiler is
/// disabled first: the two are never on together) on a thread of its own, so that
/// it overlaps the rest of the session's set-up (NVML, device metadata, journal). Nothing when a
/// set-up is under way; quick when everything is set up already.
void start_timing_setup();
/// Waits for the set-up start_timing_setup() started (nothing when none is under way) and
/// rethrows its error (another CUPTI subscriber, say); a later start tries again.
void finish_timing_setup();
/// Waits for a set-up under way and drops its error: before kernel records are turned off (the
/// range profiler's sessions, release_cupti()). Does not throw.
void settle_timing_setup() noexcept;

/// Disables a kept range profiler and kernel activity records and unsubscribes the process, so
/// that another CUPTI client (torch.profiler, Nsight Systems attached later) can have CUPTI.
/// Does not throw.
void release_cupti() noexcept;

}  // namespace kscope::cupti
