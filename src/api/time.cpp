// kscope::time: the device's parts (the cupti tool, the process's cache flusher, the device's
// synchronisation) around the device-free session of api/time_session.

#include "kscope/time.hpp"

#include <chrono>
#include <memory>

#include "api/time_session.hpp"
#include "collect/tool_registry.hpp"
#include "cuda/device.hpp"
#include "cuda/gpu_run_environment.hpp"
#include "cuda/resident_flusher.hpp"

namespace kscope {

Timing time(const std::function<void()>& fn, const TimeOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  HostTimes times(options.verbosity >= Verbosity::kDebug);  // page faults only for DEBUG
  const Options session = session_options(options);  // bad values fail before the device check
  const ToolEntry& tool = find_tool(session.tool);
  if (tool.check_options) tool.check_options(session);
  times.step("options");
  const int device = cuda::require_device();
  const std::unique_ptr<Collector> collector = tool.make(session);
  // A flush buffer per call would cost an allocation of 2 x L2 and a first flush each time.
  cuda::GpuRunEnvironment environment(
      session.cache_control != "none" ? &cuda::resident_flusher(device) : nullptr, session);
  times.step("device and tool");
  Timing timing = time_session(fn, options, session, *collector, environment, device, times);
  timing.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return timing;
}

}  // namespace kscope
