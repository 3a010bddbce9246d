#pragma once
// The GPU profilers running on this host, found by process name in /proc: what an error about
// counters another process holds names, so that the user knows whom to wait for or stop.

#include <string>

namespace kscope {

/// "ncu (pid 4242), nsys (pid 4300)": the processes of this host named ncu, nsys,
/// compute-sanitizer or nv-hostengine (DCGM), other than this process; "" when none. `proc` is
/// the proc file system's root.
[[nodiscard]] std::string running_profilers(const std::string& proc = "/proc");

}  // namespace kscope
