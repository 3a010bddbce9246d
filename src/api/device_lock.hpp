#pragma once
// An exclusive lock on one GPU among the processes of a host, held while a sharded process
// measures: ranks that share a GPU (more ranks than GPUs) then measure one after another
// instead of disturbing each other's timings, and sessions that read hardware counters (which
// one GPU gives one process at a time) wait for each other. flock(2) on
// $TMPDIR/kscope-gpu-<uuid>.lock, released when the process ends, however it ends; the holder
// writes "<pid> <command line>" into it, so that a process that waits says for whom.

#include <string>

#include "core/logger.hpp"

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

/// The command line of process `pid` from /proc, its arguments joined by spaces ("" when gone).
[[nodiscard]] std::string command_line_of(int pid);

/// Who holds the lock open at `fd`, from what it wrote: "kscope process 4242 (python sweep.py)",
/// or "another kscope process" when it wrote nothing yet.
[[nodiscard]] std::string lock_holder(int fd);

}  // namespace kscope
