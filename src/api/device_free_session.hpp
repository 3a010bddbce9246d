#pragma once
// profile() without a device, for CPU tests and benchmarks: the engine's real plan, journal,
// Session, tables and CSV files (run_in_process) around a collector and a run environment of the
// caller's, without NVML.

#include <memory>
#include <string_view>
#include <vector>

#include "core/collector.hpp"
#include "core/run_environment.hpp"
#include "kscope/profile.hpp"

namespace kscope {

/// Checks and plans the sweep exactly as profile() does (api/sweep_setup.hpp: the same errors, the
/// same rank prefix; every call is session 0) and runs it with `collector` in `environment`
/// (null: one that does nothing).
[[nodiscard]] Results profile_without_device(std::string_view name, std::vector<Config> configs,
                                             const Benchmark& fn, const Options& options,
                                             std::unique_ptr<Collector> collector,
                                             std::unique_ptr<RunEnvironment> environment = nullptr);

}  // namespace kscope
