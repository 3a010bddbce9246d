#pragma once
// An exclusive lock on one GPU among the processes of a host, held while a sharded process
// measures (in process, or the parent of a re-executing tool such as ncu while its child runs):
// ranks that share a GPU (more ranks than GPUs) then measure one after another instead of
// disturbing each other's timings. flock(2) on $TMPDIR/kscope-gpu-<uuid>.lock, released when
// the process ends, however it ends.

#include <optional>
#include <string>

#include "core/logger.hpp"
#include "core/shard.hpp"

namespace kscope {

class DeviceLock {
 public:
  /// Blocks until the lock of the GPU `uuid` is free; says so at INFO when it has to wait.
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

}  // namespace kscope
