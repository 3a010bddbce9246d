#pragma once
// The cache flushers kscope::time keeps for the process, one per device: making one allocates
// twice the L2 on the device and flushes once, which an autotuner's thousands of calls should not
// pay each time. Given up by kscope::release() (docs/cost.md).

#include "cuda/cache_flusher.hpp"

namespace kscope::cuda {

/// The process's flusher of `device`, made on first use.
[[nodiscard]] CacheFlusher& resident_flusher(int device);

/// Frees the kept flushers' buffers; the next resident_flusher() makes a new one. Does not throw.
void release_resident_flushers() noexcept;

}  // namespace kscope::cuda
