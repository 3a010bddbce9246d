#pragma once
// An exclusive lock on one GPU among the processes of a host, held while a sharded process
// measures: ranks that share a GPU (more ranks than GPUs) then measure one after another
// instead of disturbing each other's timings. flock(2) on $TMPDIR/kscope-gpu-<uuid>.lock,
// released when the process ends, however it ends.

#include <string>

#include "core/logger.hpp"

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

}  // namespace kscope
