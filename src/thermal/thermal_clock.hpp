#pragma once
// Time as thermal control sees it: a monotonic clock and a sleep, injectable so that tests run
// cooling pauses of minutes in microseconds.

#include <functional>

namespace kscope::thermal {

struct ThermalClock {
  std::function<double()> now;            ///< seconds on a monotonic clock
  std::function<void(double)> sleep;      ///< blocks for this many seconds

  /// std::chrono::steady_clock and std::this_thread::sleep_for.
  [[nodiscard]] static ThermalClock system();
};

}  // namespace kscope::thermal
