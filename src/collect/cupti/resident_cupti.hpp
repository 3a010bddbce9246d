#pragma once
// What the cupti tool keeps for the process rather than for a session: the CUPTI subscription
// behind the launch callbacks (launch_callbacks.hpp), the kernel activity records
// (activity_tracer.hpp) and, when asked for, a counter session's range profiler
// (kept_range_profiler.hpp). Made by the first session, given up by release_cupti():
// kscope::release(), before the re-executing tools start, and at exit.

namespace kscope::cupti {

/// A session is about to use CUPTI: makes sure release_cupti() runs at exit (registered once).
void keep_cupti_until_exit();
/// Disables a kept range profiler and kernel activity records and unsubscribes the process, so
/// that another CUPTI client (torch.profiler, Nsight Systems attached later) can have CUPTI.
/// Does not throw.
void release_cupti() noexcept;

}  // namespace kscope::cupti
