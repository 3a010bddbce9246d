#include "cuda/resident_flusher.hpp"

#include <map>
#include <memory>
#include <mutex>

namespace kscope::cuda {
namespace {

std::mutex& flushers_mutex() {
  static std::mutex mu;
  return mu;
}

// Never destroyed: freeing device memory from a static destructor may run after the CUDA
// runtime's own teardown; the driver frees it with the process.
std::map<int, std::unique_ptr<CacheFlusher>>& flushers() {
  static auto* kept = new std::map<int, std::unique_ptr<CacheFlusher>>();
  return *kept;
}

}  // namespace

CacheFlusher& resident_flusher(int device) {
  const std::lock_guard<std::mutex> lock(flushers_mutex());
  auto& slot = flushers()[device];
  if (!slot) slot = std::make_unique<CacheFlusher>(device);
  return *slot;
}

void release_resident_flushers() noexcept {
  const std::lock_guard<std::mutex> lock(flushers_mutex());
  flushers().clear();
}

}  // namespace kscope::cuda
