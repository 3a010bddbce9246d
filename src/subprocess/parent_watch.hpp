#pragma once
// The re-run program's side of "no orphan keeps the GPU": while the marked session runs under
// ncu or compute-sanitizer, a thread looks every 100 ms whether the tool that started this
// process is still its parent. When the tool was killed (this process was handed to init or a
// subreaper), nothing would read the session's results, and it would hold the GPU: the process
// ends at once (SIGKILL to itself). The parent's side is PR_SET_PDEATHSIG in process_runner.

#include <sys/types.h>

#include <atomic>
#include <thread>

namespace kscope::subprocess {

class ParentWatch {
 public:
  ParentWatch();  ///< watches the parent this process has now
  ~ParentWatch();
  ParentWatch(const ParentWatch&) = delete;             // non-copyable
  ParentWatch& operator=(const ParentWatch&) = delete;  // non-copyable

 private:
  pid_t parent_;
  std::atomic<bool> stop_{false};
  std::thread thread_;  // last member: started last, joined first
};

}  // namespace kscope::subprocess
