// kscope::profile: validates, wires the session to the tool, the device and the journal, then
// runs extraction and transformation. The only place that knows all layers.

#include "kscope/profile.hpp"

#include <cstdlib>

#include "api/child_session.hpp"
#include "api/external_session.hpp"
#include "api/in_process_session.hpp"
#include "api/output_prefix.hpp"
#include "api/sweep_plan.hpp"
#include "collect/tool_registry.hpp"
#include "core/logger.hpp"
#include "cuda/device.hpp"
#include "cuda/gpu_run_environment.hpp"
#include "kscope/errors.hpp"
#include "subprocess/child_marker.hpp"
#include "thermal/run_monitor.hpp"

namespace kscope {
namespace {

std::string strip(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

void check_configs(std::string_view name, std::vector<Config>& configs) {
  if (name.empty() || name.find('/') != std::string_view::npos) {
    throw InvalidArgument("Invalid session name '" + std::string(name) +
                          "': it is used in file names, so it must be non-empty and contain no '/'.");
  }
  if (configs.empty()) throw ConfigError("configs cannot be empty");
  bool same = true;
  for (const auto& c : configs) same = same && c.size() == configs.front().size();
  if (!same) {
    std::string lengths;
    for (const auto& c : configs) lengths += (lengths.empty() ? "" : ", ") + std::to_string(c.size());
    throw ConfigError("All configs must have the same number of arguments. Found lengths: [" +
                      lengths + "]");
  }
  for (std::size_t i = 0; i < configs.size(); ++i) configs[i].set_index(i);
}

}  // namespace

bool device_available(std::string* reason) { return cuda::device_available(reason); }

Results profile(std::string_view name, std::vector<Config> configs, const Benchmark& fn,
                const Options& options) {
  StepTimes steps(options.verbosity >= Verbosity::kDebug);  // page faults only for DEBUG
  Options opt = options;
  for (auto& m : opt.metrics) m = strip(m);
  opt.validate();
  check_configs(name, configs);
  validate_info_collectors(opt.info_collectors, configs.front().names(), name);
  if (!fn) throw InvalidArgument("the benchmark callable is empty");
  const ToolEntry& tool = find_tool(opt.tool);
  if (tool.check_options) tool.check_options(opt);
  const int id = next_session_id(std::string(name));
  // In a program re-run under ncu or compute-sanitizer only the marked session runs
  // (docs/tools/ncu.md); re-executing tools start such a child instead of measuring here.
  // A sharded process measures on the GPU of its local rank (the re-run child of ncu too).
  const ShardSpec shard = resolve_shard(opt.shard, [](const char* v) { return std::getenv(v); });
  if (const auto marker = subprocess::ChildMarker::from_environment()) {
    if (shard.local_rank) cuda::select_device(*shard.local_rank);
    return run_child_session(*marker, name, id, configs, fn, opt);
  }
  std::string base_prefix;
  if (shard.sharded()) {
    // Every file of a rank is named by it; ranks other than 0 leave the progress display to
    // rank 0 (a display of the caller's own is kept).
    base_prefix = resolve_output_prefix(opt.output_prefix);
    opt.output_prefix = shard_prefix(base_prefix, shard);
    if (shard.index != 0 && !opt.on_progress) opt.on_progress = [](const ProgressUpdate&) {};
  }
  const Logger log(opt);
  SweepPlan plan = plan_sweep(name, configs, opt, log, base_prefix);
  if (tool.make_external) {
    release_tools();  // nothing of kscope's CUPTI state stays on while another profiler measures
    // The parent holds the lock of the GPU its re-run child selects, as an in-process rank does.
    const std::string gpu = shard.sharded() ? cuda::device_uuid_of_rank(shard.local_rank) : "";
    return profile_external(tool, name, id, configs, opt, std::move(plan), gpu);
  }

  thermal::preload_nvml();  // overlaps the device, metadata and tool set-up below
  InProcessTool parts;
  parts.steps = steps;
  parts.steps.lap("validation and plan");
  if (shard.local_rank) cuda::select_device(*shard.local_rank);
  parts.device = cuda::require_device();
  parts.steps.lap("device");
  parts.metadata = cuda::device_metadata(parts.device);
  parts.steps.lap("metadata");
  parts.collector = tool.make(opt);
  parts.metadata.tool = tool.name;
  parts.metadata.tool_version = parts.collector->version();
  if (tool.duration_definition) parts.metadata.duration_definition = tool.duration_definition(opt);
  parts.steps.lap("tool");
  parts.environment = std::make_unique<cuda::GpuRunEnvironment>(parts.device, opt);
  parts.steps.lap("cache flush buffer");
  // Before each run: thermal guard, then telemetry; the environment flushes the cache at every
  // annotated region's entry. Made here, before the tool's begin sets CUPTI up. Made after it,
  // so that NVML's load overlapped CUPTI's set-up, a cache_control "none" sweep whose benchmark
  // made torch's first CUDA call hung in it, and a process's first call was only 0.5-4 ms shorter
  // (H200, 2026-12-02, bench/RESULTS.md).
  parts.monitor = thermal::RunMonitor::create(opt, log);
  parts.steps.lap("NVML and telemetry");
  return run_in_process(name, id, configs, fn, opt, std::move(plan), std::move(parts));
}

}  // namespace kscope
