#include "collect/cupti/launch_joiner.hpp"

#include <algorithm>

#include "core/kernel_name.hpp"
#include "cuda/l2_flush_kernel.hpp"
#include "kscope/errors.hpp"
#include "kscope/options.hpp"

namespace kscope::cupti {

void LaunchJoiner::add_launch(std::uint32_t correlation_id, LaunchInfo info) {
  std::lock_guard<std::mutex> lock(mu_);
  launches_[correlation_id] = std::move(info);
}

std::vector<KernelRecord> LaunchJoiner::join(
    std::vector<KernelActivity> kernels,
    const std::function<void(const KernelActivity&, KernelRecord&)>& decorate) {
  struct Key {
    std::uint64_t launch_sequence;
    std::uint64_t start;
  };
  std::vector<KernelRecord> out;
  out.reserve(kernels.size());
  std::vector<Key> keys;  // of out's records
  keys.reserve(kernels.size());
  std::vector<std::uint32_t> matched;  // a graph launch's kernels share one: erased after all
  matched.reserve(kernels.size());
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& k : kernels) {
      if (k.name == cuda::kL2DiscardKernel) {  // kscope's flush, under the next launch's id
        ++flush_kernels_;
        continue;
      }
      auto it = launches_.find(k.correlation_id);
      if (it == launches_.end()) continue;
      if (k.end < k.start) {
        throw ToolError("CUPTI reported kernel '" + demangle(k.name) +
                        "' ending before it started (start " + std::to_string(k.start) +
                        " ns, end " + std::to_string(k.end) + " ns)");
      }
      matched.push_back(k.correlation_id);
      KernelRecord& r = out.emplace_back();
      r.annotation = it->second.annotation;
      auto name = base_names_.find(k.name);
      if (name == base_names_.end()) name = base_names_.emplace(k.name, kernel_base_name(k.name)).first;
      r.kernel = name->second;
      r.run = it->second.run;
      r.device = k.device;
      r.metrics.push_back({kTimeMetric, static_cast<double>(k.end - k.start), std::string("ns")});
      r.start_ns = static_cast<std::int64_t>(k.start) + k.host_offset_ns;
      r.end_ns = static_cast<std::int64_t>(k.end) + k.host_offset_ns;
      r.stream = k.stream;
      if (decorate) decorate(k, r);
      r.mangled = std::move(k.name);
      keys.push_back({it->second.sequence, k.start});
    }
    for (auto id : matched) launches_.erase(id);
  }
  // Kernels of one graph launch share its correlation id: order them by GPU start time. The
  // records mostly come in that order already; otherwise an index is sorted and both follow it.
  auto before = [](const Key& a, const Key& b) {
    if (a.launch_sequence != b.launch_sequence) return a.launch_sequence < b.launch_sequence;
    return a.start < b.start;
  };
  if (!std::is_sorted(keys.begin(), keys.end(), before)) {
    std::vector<std::size_t> order(out.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return before(keys[a], keys[b]); });
    std::vector<KernelRecord> sorted;
    sorted.reserve(out.size());
    std::vector<Key> sorted_keys;
    sorted_keys.reserve(keys.size());
    for (const std::size_t i : order) {
      sorted.push_back(std::move(out[i]));
      sorted_keys.push_back(keys[i]);
    }
    out.swap(sorted);
    keys.swap(sorted_keys);
  }
  std::uint64_t rank = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    rank = (i > 0 && keys[i].launch_sequence == keys[i - 1].launch_sequence) ? rank + 1 : 0;
    out[i].sequence = (keys[i].launch_sequence << 16) + rank;
  }
  return out;
}

void LaunchJoiner::clear() {
  std::lock_guard<std::mutex> lock(mu_);
  launches_.clear();
  flush_kernels_ = 0;
}

std::size_t LaunchJoiner::flush_kernels() const {
  std::lock_guard<std::mutex> lock(mu_);
  return flush_kernels_;
}

std::size_t LaunchJoiner::pending_launches() const {
  std::lock_guard<std::mutex> lock(mu_);
  return launches_.size();
}

}  // namespace kscope::cupti
