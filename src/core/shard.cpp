#include "core/shard.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <queue>
#include <utility>

#include "kscope/errors.hpp"

namespace kscope {
namespace {

std::optional<std::size_t> number(const std::string& text) {
  if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return static_cast<std::size_t>(std::stoul(text));
}

struct Launcher {
  const char* name;
  const char* rank;
  const char* size;
  const char* local_rank;
  bool always_both;  // the launcher sets rank and size in every process it starts
};

constexpr Launcher kLaunchers[] = {
    {"torchrun", "RANK", "WORLD_SIZE", "LOCAL_RANK", true},
    // A batch script's shell has SLURM_PROCID=0 without SLURM_NTASKS unless -n was given.
    {"Slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", false},
    {"MPI", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK", true},
    {"MPI", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID", false},
};

std::size_t variable(const EnvLookup& env, const char* name, const char* launcher) {
  const char* value = env(name);
  const auto n = number(value ? value : "");
  if (!n) {
    throw InvalidArgument(std::string("Invalid ") + name + "='" + (value ? value : "") +
                          "' for shard 'auto' (set by " + launcher +
                          "): expected a non-negative integer.");
  }
  return *n;
}

}  // namespace

std::string ShardSpec::describe() const {
  return "rank " + std::to_string(index) + " of " + std::to_string(count) +
         (source.empty() ? "" : " (" + source + ")");
}

ShardSpec resolve_shard(const std::string& option, const EnvLookup& env) {
  ShardSpec s;
  if (option.empty()) return s;
  if (option == "auto") {
    for (const auto& l : kLaunchers) {
      if (!env(l.rank) || !env(l.size)) continue;
      s.index = variable(env, l.rank, l.name);
      s.count = variable(env, l.size, l.name);
      if (env(l.local_rank)) s.local_rank = static_cast<int>(variable(env, l.local_rank, l.name));
      s.source = l.name;
      if (s.count == 0 || s.index >= s.count) {
        throw InvalidArgument(std::string("Invalid shard 'auto': ") + l.rank + "=" +
                              std::to_string(s.index) + " is not below " + l.size + "=" +
                              std::to_string(s.count) + " (set by " + l.name + ").");
      }
      return s;
    }
    // Half of such a launcher's pair is a broken environment, not a sweep of one process.
    for (const auto& l : kLaunchers) {
      if (!l.always_both) continue;
      const char* set = env(l.rank) ? l.rank : env(l.size) ? l.size : nullptr;
      if (!set) continue;
      const char* unset = set == l.rank ? l.size : l.rank;
      throw InvalidArgument(std::string("Invalid shard 'auto': ") + set + "='" + env(set) +
                            "' is set but " + unset + " is not (" + l.name +
                            " sets both). Set " + unset + ", unset " + set +
                            " to measure every config, or give shard 'i/n'.");
    }
    return s;  // not started by a launcher: the whole sweep
  }
  const auto slash = option.find('/');
  const auto i = number(option.substr(0, slash));
  const auto n = slash == std::string::npos ? std::nullopt : number(option.substr(slash + 1));
  if (!i || !n || *n == 0 || *i >= *n) {
    throw InvalidArgument("Invalid shard '" + option +
                          "'. Expected 'auto' (the rank from torchrun, Slurm or MPI) or 'i/n' "
                          "with 0 <= i < n (this process measures share i of n).");
  }
  s.index = *i;
  s.count = *n;
  s.source = "shard option";
  return s;
}

std::vector<std::size_t> shard_configs(std::size_t num_configs, const ShardSpec& shard,
                                       const std::vector<double>& weights) {
  std::vector<std::size_t> mine;
  if (weights.size() != num_configs) {
    for (std::size_t c = shard.index; c < num_configs; c += shard.count) mine.push_back(c);
    return mine;
  }
  // Longest first onto the least loaded rank (lowest rank on ties): the same on every rank.
  std::vector<std::size_t> order(num_configs);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return weights[a] > weights[b]; });
  // The ranks by load, least first (a heap: a scan of the loads per config was O(configs x
  // ranks)).
  using Load = std::pair<double, std::size_t>;  // load, rank
  std::vector<Load> ranks(shard.count);
  for (std::size_t r = 0; r < shard.count; ++r) ranks[r] = {0.0, r};
  std::priority_queue<Load, std::vector<Load>, std::greater<>> least(std::greater<>(),
                                                                     std::move(ranks));
  for (const std::size_t c : order) {
    Load next = least.top();
    least.pop();
    if (next.second == shard.index) mine.push_back(c);
    next.first += weights[c];
    least.push(next);
  }
  std::sort(mine.begin(), mine.end());
  return mine;
}

}  // namespace kscope
