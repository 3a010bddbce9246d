// kscope::profile: checks and plans the sweep as the CPU entry does (sweep_setup), then wires the
// session to the tool, the device and the journal, or hands it to a re-running tool or its
// child. The only place that knows all layers.

#include "kscope/profile.hpp"

#include <utility>

#include "api/child_session.hpp"
#include "api/external_session.hpp"
#include "api/in_process_session.hpp"
#include "api/output_prefix.hpp"
#include "api/sweep_setup.hpp"
#include "core/free_memory.hpp"
#include "core/logger.hpp"
#include "cuda/device.hpp"
#include "cuda/gpu_run_environment.hpp"
#include "subprocess/child_marker.hpp"
#include "thermal/run_monitor.hpp"

namespace kscope {

bool device_available(std::string* reason) { return cuda::device_available(reason); }

namespace {

// profile() up to the memory it gives back.
Results profile_session(std::string_view name, std::vector<Config> configs, const Benchmark& fn,
                        const Options& options) {
  HostTimes times(options.verbosity >= Verbosity::kDebug);  // page faults only for DEBUG
  CheckedSweep sweep = check_sweep(name, std::move(configs), fn, options, next_session_id);
  const ToolEntry& tool = *sweep.tool;
  const int id = sweep.id;
  const ShardSpec& shard = sweep.shard;
  // In a program re-run under ncu or compute-sanitizer only the marked session runs
  // (docs/tools/ncu.md); re-executing tools start such a child instead of measuring here.
  // A sharded process measures on the GPU of its local rank (the re-run child of ncu too).
  if (const auto marker = subprocess::ChildMarker::from_environment()) {
    if (shard.local_rank) cuda::select_device(*shard.local_rank);
    return run_child_session(*marker, name, id, sweep.configs, fn, sweep.options);
  }
  SweepPlan plan = plan_checked_sweep(name, &sweep);
  const Options& opt = sweep.options;
  if (tool.make_external) {
    release_tools();  // nothing of kscope's CUPTI state stays on while another profiler measures
    // The parent holds the lock of the GPU its re-run child selects, as an in-process rank does.
    const std::string gpu = shard.sharded() ? cuda::device_uuid_of_rank(shard.local_rank) : "";
    return profile_external(tool, name, id, sweep.configs, opt, std::move(plan), gpu);
  }

  thermal::preload_nvml();  // overlaps the device, metadata and tool set-up below
  InProcessTool parts;
  parts.times = times;
  parts.times.step("validation and plan");
  if (shard.local_rank) cuda::select_device(*shard.local_rank);
  parts.device = cuda::require_device();
  parts.times.step("device");
  parts.metadata = cuda::device_metadata(parts.device);
  parts.times.step("metadata");
  parts.collector = tool.make(opt);
  parts.metadata.tool = tool.name;
  parts.metadata.tool_version = parts.collector->version();
  if (tool.duration_definition) parts.metadata.duration_definition = tool.duration_definition(opt);
  parts.times.step("tool");
  parts.environment = std::make_unique<cuda::GpuRunEnvironment>(parts.device, opt);
  parts.times.step("cache flush buffer");
  // Before each run: thermal guard, then telemetry; the environment flushes the cache at every
  // annotated region's entry. Made here, before the tool's begin sets CUPTI up. Made after it,
  // so that NVML's load overlapped CUPTI's set-up, a cache_control "none" sweep whose benchmark
  // made torch's first CUDA call hung in it, and a process's first call was only 0.5-4 ms shorter
  // (H200, 2026-12-02, bench/RESULTS.md).
  const Logger log(opt);  // the monitor's, for as long as the session runs
  parts.monitor = thermal::RunMonitor::create(opt, log);
  parts.times.step("NVML and telemetry");
  return run_in_process(name, id, sweep.configs, fn, opt, std::move(plan), std::move(parts));
}

}  // namespace

Results profile(std::string_view name, std::vector<Config> configs, const Benchmark& fn,
                const Options& options) {
  Results r = profile_session(name, std::move(configs), fn, options);
  give_back_free_memory();  // what the session held until the tables were built
  return r;
}

}  // namespace kscope
