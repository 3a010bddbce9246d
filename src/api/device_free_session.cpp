#include "api/device_free_session.hpp"

#include <cstdlib>
#include <utility>

#include "api/in_process_session.hpp"
#include "api/sweep_plan.hpp"
#include "collect/tool_registry.hpp"
#include "core/logger.hpp"
#include "thermal/run_monitor.hpp"

namespace kscope {
namespace {

class NoDevice : public RunEnvironment {
 public:
  void synchronize() override {}
};

}  // namespace

Results profile_without_device(std::string_view name, std::vector<Config> configs,
                               const Benchmark& fn, const Options& options,
                               std::unique_ptr<Collector> collector,
                               std::unique_ptr<RunEnvironment> environment) {
  options.validate();
  if (configs.empty()) throw ConfigError("configs cannot be empty");
  validate_info_collectors(options.info_collectors, configs.front().names(), name);
  for (std::size_t i = 0; i < configs.size(); ++i) configs[i].set_index(i);
  Options opt = options;
  const ShardSpec shard = resolve_shard(opt.shard, [](const char* v) { return std::getenv(v); });
  const std::string base_prefix = opt.output_prefix;
  opt.output_prefix = shard_prefix(opt.output_prefix, shard);
  const Logger log(opt);
  SweepPlan plan = plan_sweep(name, configs, opt, log, base_prefix);
  InProcessTool tool;
  tool.steps = StepTimes(log.debug_enabled());
  tool.metadata.gpu = "none (CPU test session)";
  tool.metadata.host = "localhost";
  tool.metadata.tool = options.tool;
  // The definition the named tool would have used: what the fake stands in for.
  const ToolEntry& entry = find_tool(options.tool);
  if (entry.duration_definition) tool.metadata.duration_definition = entry.duration_definition(opt);
  tool.collector = std::move(collector);
  tool.environment = environment ? std::move(environment) : std::make_unique<NoDevice>();
  tool.monitor = std::make_unique<thermal::RunMonitor>(opt, log, nullptr, [] { return 0; });
  return run_in_process(name, 0, configs, fn, opt, std::move(plan), std::move(tool));
}

}  // namespace kscope
