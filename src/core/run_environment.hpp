#pragma once
// What the session needs from the device around each run, kept behind an interface so that the
// core stays free of CUDA and the loop can be tested with a fake.

#include "core/kernel_record.hpp"

namespace kscope {

class RunEnvironment {
 public:
  virtual ~RunEnvironment() = default;
  /// Before the run: thermal guard, telemetry reading, cache flush (in that order).
  virtual void before_run(const RunId& run) { (void)run; }
  /// Waits until all work on the device has finished; throws on a device error.
  virtual void synchronize() = 0;
  /// After the run has been synchronised: telemetry reading.
  virtual void after_run(const RunId& run) { (void)run; }
};

}  // namespace kscope
