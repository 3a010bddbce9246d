#include "report/synthetic_timeline.hpp"

#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <utility>

namespace kscope::report {

Timeline synthetic_timeline(const Results& results) {
  constexpr std::int64_t kGapNs = 1000;      // between kernels and runs
  constexpr std::int64_t kDefaultNs = 1000;  // a kernel without a time
  // (config, run) -> the rows of its annotations, in table order.
  std::map<std::pair<std::size_t, std::size_t>, std::vector<const RawRow*>> runs;
  std::map<std::tuple<std::size_t, std::size_t, std::string>, double> times;
  for (const auto& r : results.raw()) {
    auto [it, added] = times.emplace(std::make_tuple(r.config, r.run, r.annotation), std::nan(""));
    if (added) runs[{r.config, r.run}].push_back(&r);
    if (r.metric == kTimeMetric) it->second = r.value;
  }
  Timeline t;
  std::int64_t now = 0;
  for (const auto& [id, rows] : runs) {
    const std::int64_t run_start = now;
    for (const RawRow* first : rows) {
      const double ns = times.at(std::make_tuple(id.first, id.second, first->annotation));
      const auto len = std::isfinite(ns) && ns > 0 ? static_cast<std::int64_t>(ns) : kDefaultNs;
      now += kGapNs;
      t.kernels.push_back({first->annotation, first->kernel, id.first, id.second, false,
                           results.metadata().device, std::nullopt, now, now + len});
      now += len;
    }
    now += kGapNs;
    PhaseSpan p;
    p.phase = "benchmark";
    p.config = id.first;
    p.run = id.second;
    p.start_ns = run_start;
    p.end_ns = now;
    t.phases.push_back(std::move(p));
    now += kGapNs;
  }
  return t;
}

}  // namespace kscope::report
