#pragma once
// Builders of synthetic kernel records and run logs for extraction/transformation tests.

#include <string>
#include <vector>

#include "core/kernel_record.hpp"
#include "kscope/options.hpp"

namespace kscope::testing {

inline KernelRecord kernel(const std::string& annotation, const std::string& name, std::size_t config,
                           std::size_t run, double ns, std::uint64_t sequence = 0) {
  KernelRecord k;
  k.annotation = annotation;
  k.kernel = name;
  k.run = RunId{config, run, false};
  k.sequence = sequence;
  k.metrics.push_back({kTimeMetric, ns, std::string("ns")});
  return k;
}

inline RunLog run_log(std::size_t config, std::size_t run, std::vector<std::string> entered,
                      std::vector<std::string> failed = {}) {
  RunLog r;
  r.run = RunId{config, run, false};
  r.entered = std::move(entered);
  r.failed = std::move(failed);
  return r;
}

}  // namespace kscope::testing
