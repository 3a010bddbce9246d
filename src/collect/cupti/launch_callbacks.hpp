#pragma once
// The CUPTI Callback API side of the cupti tool: at the entry of every driver-level kernel
// launch (cuLaunchKernel[Ex], cooperative launches, cuGraphLaunch, and their _ptsz forms, which
// cover CUDA C++ <<<>>>, cuBLAS, PyTorch, Triton and CuPy) it records which annotation is open
// and which run is executing, keyed by the launch's correlation id.

#include "collect/cupti/launch_joiner.hpp"

namespace kscope::cupti {

class LaunchCallbacks {
 public:
  LaunchCallbacks() = default;
  ~LaunchCallbacks();
  LaunchCallbacks(const LaunchCallbacks&) = delete;             // non-copyable
  LaunchCallbacks& operator=(const LaunchCallbacks&) = delete;  // non-copyable

  /// Subscribes to CUPTI (throws CuptiError naming the other client when one holds CUPTI) and
  /// enables the launch callbacks, feeding `joiner`.
  void subscribe(LaunchJoiner* joiner);
  /// Disables the callbacks and unsubscribes. Does not throw.
  void unsubscribe() noexcept;

 private:
  void* subscriber_ = nullptr;
  LaunchJoiner* joiner_ = nullptr;
};

}  // namespace kscope::cupti
