#pragma once
// Device memory saved once and restored before each later replay pass, so that every pass of a
// re-executed run starts from the same memory (metric_replay "checkpoint"). An interface so that
// the replay logic is tested with a fake; CuptiCheckpoint is the real one.

namespace kscope::cupti {

class MemoryCheckpoint {
 public:
  virtual ~MemoryCheckpoint() = default;
  /// Saves the device memory of the profiled context, replacing any earlier save.
  virtual void save() = 0;
  /// Restores the memory of the last save().
  virtual void restore() = 0;
};

}  // namespace kscope::cupti
