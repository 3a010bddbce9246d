#include "core/session_phases.hpp"

#include <cstdio>

namespace kscope {

std::string SessionPhases::summary() const {
  static constexpr const char* kNames[kCount] = {"environment before", "tool before", "benchmark",
                                                 "synchronize",        "tool after",  "environment after",
                                                 "journal", "region entry (in benchmark)"};
  if (runs_ == 0) return "no runs";
  std::string out = "host time per run (us, mean over " + std::to_string(runs_) + " executions):";
  for (std::size_t i = 0; i < kCount; ++i) {
    const double us = std::chrono::duration<double, std::micro>(totals_[i]).count() / runs_;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s %s %.1f", i ? "," : "", kNames[i], us);
    out += buf;
  }
  return out;
}

}  // namespace kscope
