#pragma once
// What the session needs from the device around each run, kept behind an interface so that the
// core stays free of CUDA and the loop can be tested with a fake.

#include <string>

#include "core/kernel_record.hpp"

namespace kscope {

class RunEnvironment {
 public:
  virtual ~RunEnvironment() = default;
  /// Before the run: thermal guard, telemetry reading (in that order).
  virtual void before_run(const RunId& run) { (void)run; }
  /// At the entry of every annotated region of a run (warm-up runs and every replay pass
  /// included), after the GPU work launched before it and before the region opens, so that its
  /// kernels are not attributed to the region: the cache flush of cache_control "all". Called on
  /// the thread that opens the annotation.
  virtual void before_region(const std::string& annotation) { (void)annotation; }
  /// cache_control "all": before a kernel of a region after its first (and after every
  /// before_region), called by the tool at the entry of that kernel's launch call, on the
  /// launching thread, with the CUstream it launches on: waits for the work launched before it
  /// and enqueues the cache flush on `stream`, so that the flush runs between the earlier kernels
  /// and this one. May throw; the tool reports the error at the run's end.
  virtual void before_kernel(void* stream) { (void)stream; }
  /// Waits until all work on the device has finished; throws on a device error.
  virtual void synchronize() = 0;
  /// After the benchmark threw with Options::on_config_error "skip": waits for the device and
  /// clears an error the failed run left that later work can survive; throws (kscope::Error)
  /// when the device stays unusable (a sticky CUDA error), which ends the sweep.
  virtual void recover() { synchronize(); }
  /// After the run has been synchronised: telemetry reading.
  virtual void after_run(const RunId& run) { (void)run; }
};

}  // namespace kscope
