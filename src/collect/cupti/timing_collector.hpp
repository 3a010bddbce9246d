#pragma once
// Kernel durations for the cupti tool: the driver launch callbacks record the annotation and run
// of every launch (TimingObserver), CUPTI's activity records give each kernel's start and end,
// and LaunchJoiner joins them by correlation id. Nothing of the range profiler is enabled.

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "collect/cupti/launch_callbacks.hpp"
#include "collect/cupti/launch_joiner.hpp"
#include "collect/cupti/measurement_path.hpp"
#include "collect/cupti/timing_observer.hpp"

namespace kscope::cupti {

class TimingCollector : public MeasurementPath {
 public:
  /// Attaches to the process's launch callbacks and kernel activity records (made on first use,
  /// kept between sessions: resident_cupti.hpp); throws when CUPTI refuses, e.g. when another
  /// client holds it. Every record gets
  /// `launch_metrics` (launch__*, device__attribute_*: launch_metrics.hpp) from its activity
  /// record and its device's attributes.
  explicit TimingCollector(std::vector<std::string> launch_metrics = {});
  ~TimingCollector() override;
  TimingCollector(const TimingCollector&) = delete;             // owns the CUPTI subscription
  TimingCollector& operator=(const TimingCollector&) = delete;  // owns the CUPTI subscription

  /// A run starts: the next flush has records to fetch.
  void before_run(const RunId& run, int pass) override;
  /// Takes CUPTI's complete activity buffers, forces a flush of the others only if a launch of
  /// the session's runs still has no record (KSCOPE_CUPTI_FLUSH=forced: always), and joins their
  /// kernels to the launches.
  [[nodiscard]] std::vector<KernelRecord> flush() override;
  /// After the Session's synchronisation, a forced activity flush delivers every kernel.
  [[nodiscard]] bool flush_is_complete() const override { return true; }
  /// The last flush, unless no run started since the previous one: the Session flushes after
  /// every batch of runs="auto" and then ends the tool, and that second forced CUPTI flush
  /// would find nothing (flushes are complete) at the cost of a flush per kscope::time call.
  [[nodiscard]] std::vector<KernelRecord> end() override;
  /// "[cupti] the session's N flushes (ms): CUPTI's flush, of which decoding, joining".
  [[nodiscard]] std::string cost_summary() const override { return cost_summary_; }
  [[nodiscard]] std::optional<std::size_t> flush_kernels_seen() const override {
    return flush_kernels_seen_;
  }
  void abort() noexcept override;

 private:
  void add_launch_metrics(const KernelActivity& activity, KernelRecord& record);
  /// The records of `kernels` launched in the session's runs, timed into join_.
  [[nodiscard]] std::vector<KernelRecord> join(std::vector<KernelActivity> kernels);

  std::vector<std::string> launch_metrics_;
  std::chrono::steady_clock::duration join_{};  // the session's joins so far
  std::size_t flush_kernels_seen_ = 0;  // the joiner's flush_kernels(), kept by end()
  std::string cost_summary_;                    // made at end()
  std::map<int, std::map<std::string, double>> attributes_;  // by device, read on first use
  LaunchJoiner joiner_;
  TimingObserver timing_{&joiner_};
  LaunchCallbacks callbacks_;
  bool active_ = false;
  bool ran_since_flush_ = false;  // a run started after the last flush
};

}  // namespace kscope::cupti
