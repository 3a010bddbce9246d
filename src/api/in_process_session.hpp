#pragma once
// profile() for the in-process tools (cupti): the journal (resumed or new), the thermal guard
// and telemetry around every run, the Session, and the tables. What touches the device comes
// in as an InProcessTool, so the same wiring runs in tests with a fake collector and device.

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "api/sweep_plan.hpp"
#include "core/collector.hpp"
#include "core/logger.hpp"
#include "core/run_environment.hpp"
#include "core/host_times.hpp"
#include "kscope/profile.hpp"
#include "thermal/run_monitor.hpp"

namespace kscope {

/// What an in-process session measures with.
struct InProcessTool {
  int device = 0;                                 ///< CUDA ordinal (SessionInfo::device)
  Metadata metadata;                              ///< device and host; tool and its version
  std::unique_ptr<Collector> collector;           ///< the tool
  std::unique_ptr<RunEnvironment> environment;    ///< cache flush, synchronisation
  std::unique_ptr<thermal::RunMonitor> monitor;   ///< thermal guard and telemetry
  HostTimes times;  ///< the call's host times: its fixed steps so far (validation, device, ...)
};

/// Runs session (`name`, `id`) of the sweep `configs` over `plan.to_measure` with `tool`,
/// journaling as it goes (a sharded process, or one reading hardware counters, holding its GPU's
/// DeviceLock), and returns the
/// Results of the sweep: what was measured plus what the resumed journal carried over.
[[nodiscard]] Results run_in_process(std::string_view name, int id,
                                     const std::vector<Config>& configs, const Benchmark& fn,
                                     const Options& options, SweepPlan plan, InProcessTool tool);

}  // namespace kscope
