#include "core/step_times.hpp"

#include <cstdio>

#include <sys/resource.h>

namespace kscope {

long StepTimes::minor_faults() const {
  if (!count_faults_) return 0;
#ifdef RUSAGE_THREAD
  rusage usage{};
  if (getrusage(RUSAGE_THREAD, &usage) == 0) return usage.ru_minflt;
#endif
  return 0;
}

std::string StepTimes::summary() const {
  std::string out = "fixed cost (ms):";
  Clock::duration total{};
  long faults = 0;
  char buf[96];
  for (const auto& s : steps_) {
    total += s.time;
    faults += s.faults;
    std::snprintf(buf, sizeof buf, " %s %.2f,", s.name.c_str(),
                  milliseconds(s.time));
    out += buf;
  }
  std::snprintf(buf, sizeof buf, " total %.2f", milliseconds(total));
  out += buf;
  if (faults == 0) return out;
  out += "; minor page faults (this thread):";
  for (const auto& s : steps_) {
    if (s.faults < 10) continue;
    std::snprintf(buf, sizeof buf, " %s %ld,", s.name.c_str(), s.faults);
    out += buf;
  }
  std::snprintf(buf, sizeof buf, " total %ld", faults);
  return out + buf;
}

}  // namespace kscope
