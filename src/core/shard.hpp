#pragma once
// Options::shard: which share of a sweep's configs this process measures. The rank and rank
// count come from the launcher that started the process (torchrun, Slurm, MPI) or from the
// option itself ("i/n"); the share is interleaved (config c to rank c mod n) or balanced by the
// per-config times of an earlier result (longest first onto the least loaded rank). Every rank
// computes the same assignment on its own, so no rank talks to another.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kscope {

struct ShardSpec {
  std::size_t index = 0;          ///< this process's rank
  std::size_t count = 1;          ///< ranks; 1: not sharded
  std::optional<int> local_rank;  ///< rank on this host (the GPU it takes), when the launcher says
  std::string source;             ///< "torchrun", "Slurm", "MPI", "shard option" or "" (none)

  [[nodiscard]] bool sharded() const { return count > 1; }
  /// "rank 1 of 4 (torchrun)".
  [[nodiscard]] std::string describe() const;
};

/// Reads the environment variable `name`; nullptr when unset.
using EnvLookup = std::function<const char*(const char* name)>;

/// The shard of `option` ("" or "auto" or "i/n"). "auto" reads, in this order, torchrun's RANK,
/// WORLD_SIZE and LOCAL_RANK, Slurm's SLURM_PROCID, SLURM_NTASKS and SLURM_LOCALID, Open MPI's
/// OMPI_COMM_WORLD_RANK, OMPI_COMM_WORLD_SIZE and OMPI_COMM_WORLD_LOCAL_RANK, then MPICH/Intel
/// MPI's PMI_RANK, PMI_SIZE and MPI_LOCALRANKID; none set: not sharded. Throws InvalidArgument
/// naming the option or the variable for malformed values.
[[nodiscard]] ShardSpec resolve_shard(const std::string& option, const EnvLookup& env);

/// The indices of the configs of `shard`, in sweep order. `weights` (one per config, e.g. seconds
/// an earlier run took) balances the shares; empty: interleaved.
[[nodiscard]] std::vector<std::size_t> shard_configs(std::size_t num_configs,
                                                     const ShardSpec& shard,
                                                     const std::vector<double>& weights);

}  // namespace kscope
