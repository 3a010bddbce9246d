#include "collect/cupti/kernel_flush_gate.hpp"

#include <utility>

#include "core/annotation_registry.hpp"
#include "cuda/l2_flush_kernel.hpp"
#include "kscope/errors.hpp"

namespace kscope::cupti {

void check_flush_kernels(std::size_t flushes, std::optional<std::size_t> seen) {
  // Not "fewer than flushes": the last flushes' records may come with a later session's.
  if (!seen || *seen > 0 || flushes == 0) return;
  throw ToolError("the cupti tool flushed the L2 " + std::to_string(flushes) +
                  " times between kernels of a region (cache_control 'all') but found none of its "
                  "flush kernels ('" + std::string(cuda::kL2DiscardKernel) +
                  "') among CUPTI's kernel records, so the regions' durations could hold them. "
                  "This is a bug of kscope: measure with cache_control='region' and report it.");
}

bool KernelFlushGate::applies(const Options& options) {
  return options.cache_control == "all" && options.duration_source != "events" &&
         options.replay_mode == "kernel";
}

KernelFlushGate::KernelFlushGate(Flush flush) : flush_(std::move(flush)) {
  listener_token_ = AnnotationRegistry::instance().add_listener(
      [this](bool entering, const std::string& /*name*/) {
        if (entering) region_launches_.store(0);
      });
}

KernelFlushGate::~KernelFlushGate() { AnnotationRegistry::instance().remove_listener(listener_token_); }

void KernelFlushGate::before_launch(const LaunchEvent& event) noexcept {
  if (!event.entering || event.internal) return;
  try {
    const auto snap = AnnotationRegistry::instance().snapshot();
    if (snap.annotation < 0 || !snap.in_run) return;
    // The region's first launch follows its entry flush; every later one gets its own.
    if (region_launches_.fetch_add(1) == 0) return;
    flush_(event.stream);
    flushes_.fetch_add(1);
  } catch (...) {
    const std::lock_guard<std::mutex> lock(mu_);
    if (!error_) error_ = std::current_exception();
  }
}

void KernelFlushGate::rethrow() {
  std::exception_ptr e;
  {
    const std::lock_guard<std::mutex> lock(mu_);
    std::swap(e, error_);
  }
  if (e) std::rethrow_exception(e);
}

}  // namespace kscope::cupti
