#pragma once
// What the cupti tool and the Session hand over for a sweep of one annotated kernel, made up for
// the CPU benchmarks (bench/tables.cpp, bench/journal.cpp): per measured run a run log, one
// kernel record with a value per metric, and the run's six host phases.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/session.hpp"

namespace kscope::bench {

inline Session::Output made_up_session(const std::vector<std::string>& metrics,
                                       std::size_t configs, std::size_t runs) {
  static const char* kPhases[] = {"environment before", "tool before", "benchmark",
                                  "synchronize",        "tool after",  "environment after"};
  Session::Output out;
  std::uint64_t sequence = 0;
  for (std::size_t c = 0; c < configs; ++c) {
    for (std::size_t r = 0; r < runs; ++r) {
      RunLog log;
      log.run = {c, r, false};
      log.entered = {"spin"};
      KernelRecord k;
      k.annotation = "spin";
      k.kernel = "spin_kernel";
      k.mangled = "_Z11spin_kernelPfi";
      k.run = log.run;
      k.sequence = sequence++;
      k.start_ns = static_cast<std::int64_t>(1000 * sequence);
      k.end_ns = *k.start_ns + 5;
      k.stream = 7;
      for (std::size_t i = 0; i < metrics.size(); ++i) {
        const double value = 100.0 * static_cast<double>(c + 1) + static_cast<double>(r + i);
        k.metrics.push_back(
            {metrics[i], value, i == 0 ? std::optional<std::string>("ns") : std::nullopt});
      }
      std::int64_t t = *k.start_ns - 900;
      for (const char* phase : kPhases) {
        PhaseSpan p;
        p.phase = phase;
        p.config = c;
        p.run = r;
        p.start_ns = t;
        p.end_ns = t += 150;
        out.phases.push_back(std::move(p));
      }
      out.runs.push_back(std::move(log));
      out.records.push_back(std::move(k));
    }
  }
  return out;
}

}  // namespace kscope::bench
