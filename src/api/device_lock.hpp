#pragma once
// An exclusive lock on one GPU among the processes of a host, held while a sharded process
// measures (in process, or the parent of a re-executing tool such as ncu while its child runs):
// ranks that share a GPU (more ranks than GPUs) then measure one after another instead of
// disturbing each other's timings, and sessions that read hardware counters (which one GPU gives
// one process at a time) wait for each other. flock(2) on $TMPDIR/kscope-gpu-<uuid>.lock,
// released when the process ends, however it ends; the holder writes "<pid> <command line>"
// into it, so that a process that waits says for whom.

#include <optional>
#include <string>

#include "core/logger.hpp"
#include "core/shard.hpp"

namespace kscope {

class DeviceLock {
 public:
  /// Blocks until the lock of the GPU `uuid` is free; says so at INFO when it has to wait,
  /// naming the holder ("Waiting for kscope process 4242 (python sweep.py), which measures on
  /// GPU ..., to finish (...)"), and tries again every 50 ms; what the interrupt check
  /// (kscope::set_interrupt_check) throws meanwhile propagates.
  /// Throws kscope::Error when the lock file cannot be opened.
  DeviceLock(const std::string& uuid, const Logger& log);
  ~DeviceLock();
  DeviceLock(const DeviceLock&) = delete;             // non-copyable
  DeviceLock& operator=(const DeviceLock&) = delete;  // non-copyable

 private:
  int fd_ = -1;
};

/// The lock of GPU `uuid` for a sharded process (waiting for it as DeviceLock does); none when
/// `shard` is not sharded or the GPU has no UUID.
[[nodiscard]] std::optional<DeviceLock> lock_for_shard(const ShardSpec& shard,
                                                       const std::string& uuid, const Logger& log);

/// The command line of process `pid` from /proc, its arguments joined by spaces ("" when gone).
[[nodiscard]] std::string command_line_of(int pid);

/// Who holds the lock open at `fd`, from what it wrote: "kscope process 4242 (python sweep.py)",
/// or "another kscope process" when it wrote nothing yet.
[[nodiscard]] std::string lock_holder(int fd);

}  // namespace kscope
