// kscope::release: what profile() and kscope::time keep loaded between calls (the tools' CUPTI
// state, NVML, kscope::time's cache flush buffers).

#include "collect/tool_registry.hpp"
#include "cuda/resident_flusher.hpp"
#include "kscope/profile.hpp"
#include "thermal/run_monitor.hpp"

namespace kscope {

void release() noexcept {
  release_tools();
  thermal::release_nvml();
  cuda::release_resident_flushers();
}

}  // namespace kscope
