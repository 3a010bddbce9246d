#pragma once
// The cupti tool: in-process kernel durations (Activity API) attributed to annotations and runs
// at launch time (Callback API).

#include <memory>
#include <string>
#include <vector>

#include "collect/cupti/launch_callbacks.hpp"
#include "collect/cupti/launch_joiner.hpp"
#include "core/collector.hpp"

namespace kscope::cupti {

class CuptiCollector : public Collector {
 public:
  /// Checks, before any GPU work, that the cupti tool can honour `options` (metrics, replay
  /// mode); throws NotSupportedError naming the alternative otherwise.
  static void check_options(const Options& options);

  [[nodiscard]] std::string name() const override { return "cupti"; }
  [[nodiscard]] std::string version() const override;
  void begin(const SessionInfo& info) override;
  [[nodiscard]] std::vector<KernelRecord> flush() override;
  [[nodiscard]] std::vector<KernelRecord> end() override;
  void abort() noexcept override;

 private:
  LaunchJoiner joiner_;
  LaunchCallbacks callbacks_;
  bool active_ = false;
};

}  // namespace kscope::cupti
