#pragma once
// The CUPTI Callback API side of the cupti tool: at the entry and exit of every driver-level
// kernel launch (cuLaunchKernel[Ex], cooperative launches, cuGraphLaunch, and their _ptsz forms,
// which cover CUDA C++ <<<>>>, cuBLAS, PyTorch, Triton and CuPy) it tells an observer which
// kernel is launched, keyed by the launch's correlation id. The timing path records the open
// annotation at entry; the counter path counts successful launches at exit.

#include <cstdint>

namespace kscope::cupti {

/// One driver-level launch as the callback sees it.
struct LaunchEvent {
  std::uint32_t correlation_id = 0;
  const char* symbol = nullptr;  ///< mangled kernel name; null for graph launches
  bool graph = false;            ///< cuGraphLaunch[_ptsz]: one call, any number of kernels
  bool entering = true;          ///< API entry (true) or exit (false)
  bool succeeded = true;         ///< at exit: the launch call returned CUDA_SUCCESS
  void* context = nullptr;       ///< the CUcontext launched into (the range profiler profiles one)
  void* stream = nullptr;        ///< the CUstream launched on (_ptsz with none: CU_STREAM_PER_THREAD)
  /// Launched by kscope itself from a LaunchGate (the cache flush before a kernel): it takes a
  /// counter range when one is open, but is never attributed to the region it is launched in,
  /// and no gate is called for it.
  bool internal = false;
};

/// Receives launch events on the launching thread. Must not throw.
class LaunchObserver {
 public:
  virtual ~LaunchObserver() = default;
  virtual void on_launch(const LaunchEvent& event) noexcept = 0;
};

/// Called at the entry of every launch that is not internal, before the observer, on the
/// launching thread, before the driver enqueues the launch: what it enqueues on `event.stream`
/// runs before the kernel. Launches it makes are reported to the observer as internal. Must not
/// throw.
class LaunchGate {
 public:
  virtual ~LaunchGate() = default;
  virtual void before_launch(const LaunchEvent& event) noexcept = 0;
};

/// Sets the process's gate (null: none); the caller keeps it alive until it is unset.
void set_launch_gate(LaunchGate* gate) noexcept;

/// A session's hold on the launch callbacks. The CUPTI subscription behind them is the
/// process's: made by the first session (throws CuptiError naming the other client when one
/// holds CUPTI), kept between sessions with no observer (a launch then costs CUPTI's callback,
/// ~1 us), and given up by release_launch_callbacks() (kscope::release, exit, another tool).
class LaunchCallbacks {
 public:
  LaunchCallbacks() = default;
  ~LaunchCallbacks();
  LaunchCallbacks(const LaunchCallbacks&) = delete;             // non-copyable
  LaunchCallbacks& operator=(const LaunchCallbacks&) = delete;  // non-copyable

  /// Feeds every launch to `observer` from now on, subscribing the process first if needed.
  void subscribe(LaunchObserver* observer);
  /// Stops feeding the observer; the process stays subscribed. Does not throw.
  void unsubscribe() noexcept;

 private:
  bool attached_ = false;
};

/// Disables the launch callbacks and unsubscribes the process from CUPTI (nothing when it is
/// not subscribed), so that another CUPTI client can subscribe. Does not throw.
void release_launch_callbacks() noexcept;

}  // namespace kscope::cupti
