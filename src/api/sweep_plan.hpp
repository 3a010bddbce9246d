#pragma once
// What a profile() call measures of its sweep: this process's shard of the configs
// (Options::shard, balanced by Options::shard_balance) minus what the journal of Options::resume
// already holds complete.

#include <optional>
#include <string_view>
#include <vector>

#include "api/resume.hpp"
#include "core/logger.hpp"
#include "core/shard.hpp"

namespace kscope {

struct SweepPlan {
  ShardSpec shard;                  ///< this process's rank (count 1: not sharded)
  std::vector<Config> to_measure;   ///< the configs to measure, with their sweep indices
  std::optional<ResumePlan> resume; ///< what the resumed journal carries over
  std::string base_prefix;          ///< the output prefix before the rank was added to it
};

/// Resolves shard and resume for a sweep of `configs` (indices set); `base_prefix` is the output
/// prefix without the rank (ShardProgress finds the ranks' journals under it). Throws InvalidArgument for
/// a malformed shard, a shard_balance file of another sweep, or a journal of another sweep.
[[nodiscard]] SweepPlan plan_sweep(std::string_view name, const std::vector<Config>& configs,
                                   const Options& options, const Logger& log,
                                   const std::string& base_prefix = "");

/// `prefix` with the rank in front of the file names of a sharded process ("out/rank1-").
[[nodiscard]] std::string shard_prefix(const std::string& prefix, const ShardSpec& shard);

}  // namespace kscope
