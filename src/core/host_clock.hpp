#pragma once
// The clock of every host time kscope measures of itself (core/host_times.hpp, the tools' cost
// lines), and the milliseconds its DEBUG lines print.

#include <chrono>

namespace kscope {

using HostClock = std::chrono::steady_clock;

/// `d` in milliseconds, the unit of every DEBUG cost line.
[[nodiscard]] inline double milliseconds(HostClock::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

/// The milliseconds since `t0`.
[[nodiscard]] inline double ms_since(HostClock::time_point t0) {
  return milliseconds(HostClock::now() - t0);
}

}  // namespace kscope
