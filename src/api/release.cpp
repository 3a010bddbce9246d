// kscope::release: what profile() keeps loaded between calls (the tools' CUPTI state, NVML).

#include "collect/tool_registry.hpp"
#include "kscope/profile.hpp"
#include "thermal/run_monitor.hpp"

namespace kscope {

void release() noexcept {
  release_tools();
  thermal::release_nvml();
}

}  // namespace kscope
