#pragma once
// What the cupti tool measures with during one session: kernel durations from CUPTI activity
// records (TimingCollector) or hardware counters from the range profiler (CounterCollector).
// CuptiCollector picks one in begin() and forwards the Session's calls to it.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/kernel_record.hpp"

namespace kscope::cupti {

class MeasurementPath {
 public:
  virtual ~MeasurementPath() = default;
  /// Executions of each measured run (user replay re-executes a run once per counter pass).
  [[nodiscard]] virtual int passes_per_run() const { return 1; }
  /// First thing of every execution of a run (checkpoint replay saves or restores memory).
  virtual void prepare_pass(const RunId& run, int pass) {
    (void)run;
    (void)pass;
  }
  virtual void before_run(const RunId& run, int pass) {
    (void)run;
    (void)pass;
  }
  virtual void after_run(const RunId& run, int pass) {
    (void)run;
    (void)pass;
  }
  /// Records of the runs completed so far that were not handed over yet.
  [[nodiscard]] virtual std::vector<KernelRecord> flush() = 0;
  /// Whether flush() returns every record of every completed run (Collector::flush_is_complete).
  [[nodiscard]] virtual bool flush_is_complete() const { return false; }
  /// Stops everything and returns the remaining records.
  [[nodiscard]] virtual std::vector<KernelRecord> end() = 0;
  /// After end(): Collector::cost_summary.
  [[nodiscard]] virtual std::string cost_summary() const { return {}; }
  /// After end(): how many of kscope's flush kernels were among the kernel records it read
  /// (check_flush_kernels); nullopt: it reads none (the counter paths take no activity records).
  [[nodiscard]] virtual std::optional<std::size_t> flush_kernels_seen() const { return std::nullopt; }
  /// Stops everything without throwing.
  virtual void abort() noexcept = 0;
};

}  // namespace kscope::cupti
