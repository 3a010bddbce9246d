#pragma once
// The interface every collection tool implements. The Session drives it; it never knows which
// tool it talks to. In-process tools (cupti) measure here; re-executing tools (ncu, sanitizer)
// run a passive collector in the child and parse the external tool's report in the parent.

#include <string>
#include <vector>

#include "core/kernel_record.hpp"
#include "core/run_environment.hpp"
#include "kscope/options.hpp"

namespace kscope {

/// What a collector learns when the session starts.
struct SessionInfo {
  std::string name;           ///< session name
  int id = 0;                 ///< per-name call counter
  std::size_t num_configs = 0;
  const Options* options = nullptr;
  int device = 0;             ///< CUDA ordinal being profiled
  std::string output_prefix;  ///< where files go
  /// The device's run environment, for a tool that flushes before kernels from its launch
  /// callbacks (cache_control "all": RunEnvironment::before_kernel); null: none.
  RunEnvironment* environment = nullptr;
};

class Collector {
 public:
  virtual ~Collector() = default;
  /// Tool name as in Options::tool.
  [[nodiscard]] virtual std::string name() const = 0;
  /// Version of the underlying tool (e.g. CUPTI API version).
  [[nodiscard]] virtual std::string version() const { return {}; }
  /// Before the first run: enable tracing, check the tool is usable.
  virtual void begin(const SessionInfo& info) = 0;
  /// How many times the benchmark is executed per run (user replay re-executes a run once per
  /// counter pass). 1 for plain timing.
  [[nodiscard]] virtual int passes_per_run() const { return 1; }
  /// First thing of every execution of a run, before the run environment (thermal guard) and
  /// before any cache flush: where a replaying tool saves device memory (pass 0) or restores it
  /// (later passes), so that the copies cannot warm the caches of the measured kernels.
  virtual void prepare_pass(const RunId& run, int pass) {
    (void)run;
    (void)pass;
  }
  /// Right before the benchmark callable is executed (after the thermal guard).
  virtual void before_run(const RunId& run, int pass) {
    (void)run;
    (void)pass;
  }
  /// After the callable returned and the device is synchronised.
  virtual void after_run(const RunId& run, int pass) {
    (void)run;
    (void)pass;
  }
  /// Records of the runs completed so far that were not handed over yet.
  [[nodiscard]] virtual std::vector<KernelRecord> flush() { return {}; }
  /// Whether flush() hands over every record of every run completed so far, so that the Session
  /// can check finished runs against the kernel-count rules at once. Collectors that decode in
  /// batches (the range profiler) or deliver nothing until end() say false; their runs are
  /// checked when the session ends. Such a flush() hands over whole runs in the order they ran:
  /// a run's records arrive together, and never before those of the runs that ran before it.
  /// The Session journals a finished run once a record of it or of a later run has arrived
  /// (core/run_recorder.hpp), so a run without kernels waits for the next run that has some.
  [[nodiscard]] virtual bool flush_is_complete() const { return false; }
  /// After the last run: stop tracing and hand over the remaining records.
  [[nodiscard]] virtual std::vector<KernelRecord> end() = 0;
  /// After end(): what the session's collection cost, one line for DEBUG ("" when nothing to
  /// say). The Session prints it once the records are journaled, so a failing log loses none.
  [[nodiscard]] virtual std::string cost_summary() const { return {}; }
  /// The session failed: stop tracing, leave the process usable. Must not throw.
  virtual void abort() noexcept {}
  /// Whether a session with `options` reads the GPU's hardware counters, which one process at a
  /// time can: such sessions on one GPU wait for each other (api/device_lock).
  [[nodiscard]] virtual bool reads_counters(const Options& options) const {
    (void)options;
    return false;
  }
};

}  // namespace kscope
