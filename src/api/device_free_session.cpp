#include "api/device_free_session.hpp"

#include <utility>

#include "api/in_process_session.hpp"
#include "api/sweep_setup.hpp"
#include "core/free_memory.hpp"
#include "core/logger.hpp"
#include "thermal/run_monitor.hpp"

namespace kscope {
namespace {

class NoDevice : public RunEnvironment {
 public:
  void synchronize() override {}
};

// profile_without_device() up to the memory it gives back.
Results session_without_device(std::string_view name, std::vector<Config> configs,
                               const Benchmark& fn, const Options& options,
                               std::unique_ptr<Collector> collector,
                               std::unique_ptr<RunEnvironment> environment) {
  // Every call is a process's first: tests play several processes (ranks, a resume) in one.
  CheckedSweep sweep = check_sweep(name, std::move(configs), fn, options,
                                   [](const std::string&) { return 0; });
  SweepPlan plan = plan_checked_sweep(name, &sweep);
  const Options& opt = sweep.options;
  const Logger log(opt);
  InProcessTool tool;
  tool.times = HostTimes(log.debug_enabled());
  tool.metadata.gpu = "none (CPU test session)";
  tool.metadata.host = "localhost";
  tool.metadata.tool = sweep.tool->name;
  // The definition the named tool would have used: what the fake stands in for.
  if (sweep.tool->duration_definition) {
    tool.metadata.duration_definition = sweep.tool->duration_definition(opt);
  }
  tool.collector = std::move(collector);
  tool.environment = environment ? std::move(environment) : std::make_unique<NoDevice>();
  tool.monitor = std::make_unique<thermal::RunMonitor>(opt, log, nullptr, [] { return 0; });
  return run_in_process(name, sweep.id, sweep.configs, fn, opt, std::move(plan), std::move(tool));
}

}  // namespace

Results profile_without_device(std::string_view name, std::vector<Config> configs,
                               const Benchmark& fn, const Options& options,
                               std::unique_ptr<Collector> collector,
                               std::unique_ptr<RunEnvironment> environment) {
  Results r = session_without_device(name, std::move(configs), fn, options, std::move(collector),
                                     std::move(environment));
  give_back_free_memory();  // what the session held until the tables were built
  return r;
}

}  // namespace kscope
