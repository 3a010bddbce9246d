#include "core/step_times.hpp"

#include <cstdio>

namespace kscope {

std::string StepTimes::summary() const {
  std::string out = "fixed cost (ms):";
  Clock::duration total{};
  char buf[96];
  for (const auto& [name, d] : steps_) {
    total += d;
    std::snprintf(buf, sizeof buf, " %s %.2f,", name.c_str(),
                  std::chrono::duration<double, std::milli>(d).count());
    out += buf;
  }
  std::snprintf(buf, sizeof buf, " total %.2f", std::chrono::duration<double, std::milli>(total).count());
  return out + buf;
}

}  // namespace kscope
