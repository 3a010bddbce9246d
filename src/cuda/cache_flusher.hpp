#pragma once
// cache_control "all": before every run, write a scratch buffer of twice the L2 size (evicting
// everything else, dirty lines written back now) and then discard the scratch lines from the L2
// without write-back, so the measured kernels start with an empty, clean L2 like ncu's
// flush-and-invalidate (see l2_flush_kernel.cu for what simpler flushes got wrong on an H200).

#include <cstddef>

namespace kscope::cuda {

class CacheFlusher {
 public:
  /// Allocates 2 x L2 bytes on `device`.
  explicit CacheFlusher(int device);
  ~CacheFlusher();
  CacheFlusher(const CacheFlusher&) = delete;             // non-copyable
  CacheFlusher& operator=(const CacheFlusher&) = delete;  // non-copyable

  /// Writes and discards the scratch buffer on the legacy default stream and waits for it.
  void flush();
  [[nodiscard]] std::size_t bytes() const { return bytes_; }

 private:
  void* buffer_ = nullptr;
  std::size_t bytes_ = 0;
  int blocks_ = 0;
  unsigned char value_ = 0;
};

}  // namespace kscope::cuda
