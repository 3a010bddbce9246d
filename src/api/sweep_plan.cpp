#include "api/sweep_plan.hpp"

#include <cstdlib>
#include <set>

#include "api/sweep_identity.hpp"
#include "kscope/errors.hpp"

namespace kscope {
namespace {

// Per-config seconds of an earlier run of the sweep: the sum of its time rows (mean times runs).
std::vector<double> balance_weights(std::string_view name, const std::vector<Config>& configs,
                                    const Options& options, const Logger& log) {
  const std::string& path = options.shard_balance;
  const Results earlier = Results::load(path);
  if (const auto difference = sweep_difference(earlier.data(), name, configs, earlier.options(),
                                               "the result", "this session")) {
    throw InvalidArgument("Invalid shard_balance '" + path + "': " + *difference +
                          ". Give a result or journal of this sweep, or leave shard_balance empty "
                          "to interleave the configs.");
  }
  std::vector<double> weights(configs.size(), 0.0);
  std::vector<bool> known(configs.size(), false);
  for (const auto& p : earlier.processed()) {
    if (p.metric != kTimeMetric || !(p.avg >= 0) || p.config >= configs.size()) continue;
    weights[p.config] += p.avg * 1e-9 * static_cast<double>(p.num_runs);
    known[p.config] = true;
  }
  double sum = 0;
  std::size_t count = 0;
  for (std::size_t c = 0; c < configs.size(); ++c) {
    if (known[c]) sum += weights[c], ++count;
  }
  if (count == 0) {
    log.warn("shard_balance '" + path + "' has no " + kTimeMetric +
             " rows to balance by: the configs are interleaved.");
    return {};
  }
  for (std::size_t c = 0; c < configs.size(); ++c) {
    if (!known[c]) weights[c] = sum / static_cast<double>(count);  // unknown: an average config
  }
  return weights;
}

}  // namespace

std::string shard_prefix(const std::string& prefix, const ShardSpec& shard) {
  return shard.sharded() ? prefix + "rank" + std::to_string(shard.index) + "-" : prefix;
}

SweepPlan plan_sweep(std::string_view name, const std::vector<Config>& configs,
                     const Options& options, const Logger& log, const std::string& base_prefix) {
  SweepPlan plan;
  plan.base_prefix = base_prefix;
  plan.shard = resolve_shard(options.shard, [](const char* v) { return std::getenv(v); });
  std::set<std::size_t> mine;
  if (plan.shard.sharded()) {
    const std::vector<double> weights = options.shard_balance.empty()
                                            ? std::vector<double>{}
                                            : balance_weights(name, configs, options, log);
    for (auto c : shard_configs(configs.size(), plan.shard, weights)) mine.insert(c);
    log.info("Shard: " + plan.shard.describe() + ", " + std::to_string(mine.size()) + " of " +
             std::to_string(configs.size()) + " configs" +
             (weights.empty() ? " (interleaved)" : " (balanced by " + options.shard_balance + ")"));
  } else {
    for (const auto& c : configs) mine.insert(c.index());
  }
  if (!options.resume.empty()) plan.resume = plan_resume(name, configs, options, log);
  const std::vector<Config>& left = plan.resume ? plan.resume->to_measure : configs;
  for (const auto& c : left) {
    if (mine.count(c.index()) != 0) plan.to_measure.push_back(c);
  }
  return plan;
}

}  // namespace kscope
