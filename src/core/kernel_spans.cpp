#include "core/kernel_spans.hpp"

namespace kscope {

std::vector<KernelSpan> kernel_spans(const std::vector<KernelRecord>& records) {
  std::vector<KernelSpan> out;
  for (const auto& k : records) {
    if (!k.start_ns || !k.end_ns) continue;
    out.push_back({k.annotation, k.kernel, k.run.config, k.run.run, k.run.warmup, k.device,
                   k.stream, *k.start_ns, *k.end_ns});
  }
  return out;
}

}  // namespace kscope
