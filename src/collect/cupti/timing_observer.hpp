#pragma once
// The launch observer of the timing path: at the entry of every launch inside an annotation of a
// measured run, it records the annotation and run under the launch's correlation id, for the
// LaunchJoiner to attach to the kernel's activity record.

#include "collect/cupti/launch_callbacks.hpp"
#include "collect/cupti/launch_joiner.hpp"

namespace kscope::cupti {

class TimingObserver : public LaunchObserver {
 public:
  explicit TimingObserver(LaunchJoiner* joiner) : joiner_(joiner) {}
  void on_launch(const LaunchEvent& event) noexcept override;

 private:
  LaunchJoiner* joiner_;
};

}  // namespace kscope::cupti
