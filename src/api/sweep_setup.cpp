#include "api/sweep_setup.hpp"

#include <cstdlib>
#include <string>
#include <utility>

#include "api/output_prefix.hpp"
#include "core/logger.hpp"
#include "kscope/errors.hpp"

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

CheckedSweep check_sweep(std::string_view name, std::vector<Config> configs, const Benchmark& fn,
                         const Options& options, SessionCounter count) {
  CheckedSweep s;
  s.options = options;
  for (auto& m : s.options.metrics) m = strip(m);
  s.options.validate();
  check_configs(name, configs);
  validate_info_collectors(s.options.info_collectors, configs.front().names(), name);
  if (!fn) throw InvalidArgument("the benchmark callable is empty");
  s.tool = &find_tool(s.options.tool);
  if (s.tool->check_options) s.tool->check_options(s.options);
  s.configs = std::move(configs);
  s.id = count(std::string(name));
  s.shard = resolve_shard(s.options.shard, [](const char* v) { return std::getenv(v); });
  return s;
}

SweepPlan plan_checked_sweep(std::string_view name, CheckedSweep* sweep) {
  Options& opt = sweep->options;
  std::string base_prefix;
  if (sweep->shard.sharded()) {
    // Every file of a rank is named by it; ranks other than 0 leave the progress display to
    // rank 0 (a display of the caller's own is kept).
    base_prefix = resolve_output_prefix(opt.output_prefix);
    opt.output_prefix = shard_prefix(base_prefix, sweep->shard);
    if (sweep->shard.index != 0 && !opt.on_progress) opt.on_progress = [](const ProgressUpdate&) {};
  }
  return plan_sweep(name, sweep->configs, opt, Logger(opt), base_prefix);
}

}  // namespace kscope
