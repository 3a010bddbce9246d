#pragma once
// cache_control "all": before every run, read a scratch buffer of twice the L2 size on the
// device, so that the measured kernels start with a cold L2 holding only clean lines of the
// scratch buffer (like ncu's flush-and-invalidate; a write-based flush left dirty lines that the
// measured kernel had to write back).

#include <cstddef>

namespace kscope::cuda {

class CacheFlusher {
 public:
  /// Allocates and zero-fills 2 x L2 bytes on `device`.
  explicit CacheFlusher(int device);
  ~CacheFlusher();
  CacheFlusher(const CacheFlusher&) = delete;             // non-copyable
  CacheFlusher& operator=(const CacheFlusher&) = delete;  // non-copyable

  /// Reads the scratch buffer on the legacy default stream and waits for it.
  void flush();
  [[nodiscard]] std::size_t bytes() const { return bytes_; }

 private:
  void* buffer_ = nullptr;
  std::size_t bytes_ = 0;
  int blocks_ = 0;
};

}  // namespace kscope::cuda
