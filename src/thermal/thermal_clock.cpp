#include "thermal/thermal_clock.hpp"

#include <chrono>
#include <thread>

namespace kscope::thermal {

ThermalClock ThermalClock::system() {
  return ThermalClock{
      [] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
            .count();
      },
      [](double seconds) { std::this_thread::sleep_for(std::chrono::duration<double>(seconds)); }};
}

}  // namespace kscope::thermal
