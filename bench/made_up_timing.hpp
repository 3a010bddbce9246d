#pragma once
// The cupti tool's timing path with its CUPTI parts made up, for the CPU benchmarks
// (bench/session.cpp, bench/scale_sweep.cpp): the real launch observer and joiner, fed by made-up
// kernel activity records, and a made-up device whose "kernel" ends a set time after its launch
// (the synchronisation spins until then).

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "collect/cupti/launch_joiner.hpp"
#include "collect/cupti/timing_observer.hpp"
#include "core/collector.hpp"
#include "core/run_environment.hpp"

namespace kscope::bench {

// What CUPTI hands over of a kernel: its correlation id and name (the activity record).
struct Launched {
  std::uint32_t correlation_id;
  const char* name;
};

using Clock = std::chrono::steady_clock;

// A device that runs one kernel at a time, each `kernel` long from its launch.
class MadeUpDevice : public RunEnvironment {
 public:
  explicit MadeUpDevice(Clock::duration kernel) : kernel_(kernel) {}
  void launch() { done_ = Clock::now() + kernel_; }
  void synchronize() override {
    while (Clock::now() < done_) {
    }
  }

 private:
  Clock::duration kernel_;
  Clock::time_point done_{};
};

// The cupti tool's timing path with its CUPTI parts made up: launch() is the driver's launch
// callback, flush() decodes a "buffer" of the kernels launched so far and joins them.
class MadeUpTiming : public Collector {
 public:
  [[nodiscard]] std::string name() const override { return "cupti"; }
  void begin(const SessionInfo&) override { joiner_.clear(); }
  explicit MadeUpTiming(MadeUpDevice* device) : device_(device) {}
  void launch(const char* kernel) {
    device_->launch();
    const std::uint32_t id = ++correlation_;
    observer_.on_launch(cupti::LaunchEvent{id, kernel});
    std::lock_guard<std::mutex> lock(mu_);
    launched_.push_back({id, kernel});
  }
  [[nodiscard]] std::vector<KernelRecord> flush() override {
    std::vector<Launched> batch;
    {
      std::lock_guard<std::mutex> lock(mu_);
      batch.swap(launched_);
    }
    std::vector<cupti::KernelActivity> kernels;
    kernels.reserve(batch.size());
    for (const auto& l : batch) {
      cupti::KernelActivity a;
      a.correlation_id = l.correlation_id;
      a.name = l.name;
      a.start = 1000ULL * l.correlation_id;
      a.end = a.start + 5000;
      a.stream = 7;
      kernels.push_back(std::move(a));
    }
    return joiner_.join(std::move(kernels));
  }
  [[nodiscard]] bool flush_is_complete() const override { return true; }
  [[nodiscard]] std::vector<KernelRecord> end() override { return flush(); }
  void abort() noexcept override {}

 private:
  MadeUpDevice* device_;
  cupti::LaunchJoiner joiner_;
  cupti::TimingObserver observer_{&joiner_};
  std::mutex mu_;
  std::vector<Launched> launched_;
  std::uint32_t correlation_ = 0;
};

}  // namespace kscope::bench
