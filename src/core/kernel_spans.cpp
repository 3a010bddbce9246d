#include "core/kernel_spans.hpp"

#include <algorithm>

namespace kscope {

KernelSpans kernel_spans(const std::vector<KernelRecord>& records) {
  KernelSpans out;
  auto timed = [](const KernelRecord& k) { return k.start_ns && k.end_ns; };
  out.reserve(static_cast<std::size_t>(std::count_if(records.begin(), records.end(), timed)));
  for (const auto& k : records) {
    if (!timed(k)) continue;
    out.push_back({k.annotation, k.kernel, k.run.config, k.run.run, k.run.warmup, k.device,
                   k.stream, *k.start_ns, *k.end_ns});
  }
  return out;
}

}  // namespace kscope
