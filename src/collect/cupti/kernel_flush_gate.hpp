#pragma once
// cache_control "all" after a region's first kernel: every later kernel launched inside an
// annotated region of a run starts with a flushed L2 too, as every kernel does under ncu. The
// region's entry flush (RunEnvironment::before_region) made its first kernel cold; at the entry
// of every later launch of the region (a graph launch is one launch) the gate asks the run
// environment to flush on the launch's stream (RunEnvironment::before_kernel), from the launch
// callback, before the driver enqueues the launch: the flush runs between the two kernels, in
// neither's measured interval. The flush's own launches come back as internal launches, which
// are neither attributed nor gated. Plain logic over the annotation registry: unit-tested with a
// fake flush.

#include <atomic>
#include <cstddef>
#include <exception>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>

#include "collect/cupti/launch_callbacks.hpp"
#include "kscope/options.hpp"

namespace kscope::cupti {

/// The timing path's guard against a flush counted as a region's kernel: after a session that
/// flushed `flushes` times between kernels, a path that read kernel records (`seen` has a value)
/// must have recognised kscope's flush kernels among them and dropped them (LaunchJoiner); if it
/// recognised none, a ToolError, never durations that could hold the flushes.
void check_flush_kernels(std::size_t flushes, std::optional<std::size_t> seen);

class KernelFlushGate : public LaunchGate {
 public:
  /// Flushes the L2 with work enqueued on the given stream; may throw (kept for rethrow()).
  using Flush = std::function<void(void* stream)>;

  /// Whether a session with `options` flushes before every kernel of a region: cache_control
  /// "all", except where a region is measured as one interval that a flush inside it would
  /// fall into: duration_source "events" and replay_mode "range" (they flush at the region's
  /// entry only, as "region" does).
  [[nodiscard]] static bool applies(const Options& options);

  /// Listens to the annotation registry for region entries; does not set itself as the
  /// process's gate (set_launch_gate does).
  explicit KernelFlushGate(Flush flush);
  ~KernelFlushGate() override;
  KernelFlushGate(const KernelFlushGate&) = delete;             // registered as a listener
  KernelFlushGate& operator=(const KernelFlushGate&) = delete;  // registered as a listener

  /// Flushes before every launch of an open region in a run but its first.
  void before_launch(const LaunchEvent& event) noexcept override;
  /// Flushes made so far.
  [[nodiscard]] std::size_t flushes() const { return flushes_.load(); }
  /// Rethrows (and forgets) the first error a flush raised, if any.
  void rethrow();

 private:
  Flush flush_;
  std::size_t listener_token_ = 0;
  std::atomic<std::size_t> region_launches_{0};  // launches since the open region's entry
  std::atomic<std::size_t> flushes_{0};
  std::mutex mu_;
  std::exception_ptr error_;
};

}  // namespace kscope::cupti
