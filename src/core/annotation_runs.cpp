#include "core/annotation_runs.hpp"

#include <algorithm>

#include "core/kernel_name.hpp"

namespace kscope {
namespace {

bool ignored(const KernelRecord& k, const std::vector<std::string>& ignore) {
  for (const auto& pattern : ignore) {
    if (kernel_name_matches(k.kernel, pattern) ||
        (!k.mangled.empty() && kernel_name_matches(k.mangled, pattern))) {
      return true;
    }
  }
  return false;
}

}  // namespace

std::vector<AnnotationRuns> group_annotation_runs(const std::vector<KernelRecord>& records,
                                                  const std::vector<RunLog>& runs,
                                                  const std::vector<std::string>& ignore_kernel_list) {
  std::vector<AnnotationRuns> out;
  std::map<std::string, std::size_t> index;
  auto touch = [&](const std::string& name, const RunId& run) -> AnnotationRuns& {
    auto [it, inserted] = index.try_emplace(name, out.size());
    if (inserted) {
      out.emplace_back();
      out.back().name = name;
    }
    auto& a = out[it->second];
    if (a.kernels.find(run) == a.kernels.end()) {
      a.kernels[run];
      a.order.push_back(run);
    }
    return a;
  };

  std::vector<const RunLog*> ordered_runs;
  for (const auto& log : runs) {
    if (!log.run.warmup) ordered_runs.push_back(&log);
  }
  std::stable_sort(ordered_runs.begin(), ordered_runs.end(),
                   [](const RunLog* a, const RunLog* b) { return a->run < b->run; });
  for (const RunLog* log : ordered_runs) {
    for (const auto& name : log->entered) touch(name, log->run);
    for (const auto& name : log->failed) touch(name, log->run).failed.insert(log->run);
  }
  std::vector<const KernelRecord*> sorted;
  for (const auto& r : records) {
    if (!r.run.warmup && !r.annotation.empty()) sorted.push_back(&r);
  }
  std::stable_sort(sorted.begin(), sorted.end(), [](const KernelRecord* a, const KernelRecord* b) {
    if (!(a->run == b->run)) return a->run < b->run;
    return a->sequence < b->sequence;
  });
  for (const KernelRecord* r : sorted) {
    auto& a = touch(r->annotation, r->run);
    if (!ignored(*r, ignore_kernel_list)) a.kernels[r->run].push_back(r);
  }
  for (auto& a : out) std::sort(a.order.begin(), a.order.end());
  return out;
}

}  // namespace kscope
