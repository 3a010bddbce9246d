#pragma once
// cache_control "all": before every run, write a scratch buffer of twice the L2 size on the
// device, so that the measured kernels start with cold (flushed) L2 lines, like ncu does.

#include <cstddef>

namespace kscope::cuda {

class CacheFlusher {
 public:
  /// Allocates 2 x L2 bytes on `device`.
  explicit CacheFlusher(int device);
  ~CacheFlusher();
  CacheFlusher(const CacheFlusher&) = delete;             // non-copyable
  CacheFlusher& operator=(const CacheFlusher&) = delete;  // non-copyable

  /// Overwrites the scratch buffer on the legacy default stream and waits for it.
  void flush();
  [[nodiscard]] std::size_t bytes() const { return bytes_; }

 private:
  void* buffer_ = nullptr;
  std::size_t bytes_ = 0;
  unsigned char value_ = 0;
};

}  // namespace kscope::cuda
