#pragma once
// cache_control "all": at the entry of every annotated region, write a scratch buffer of twice
// the L2 size (evicting everything else, dirty lines written back now) and then discard the
// scratch lines from the L2 without write-back, so the measured kernels start with an empty, clean L2 like ncu's
// flush-and-invalidate (see l2_flush_kernel.cu for what simpler flushes got wrong on an H200).

#include <cstddef>

namespace kscope::cuda {

class CacheFlusher {
 public:
  /// Allocates 2 x L2 bytes on `device` and flushes once, so that the first measured flush finds
  /// its scratch memory touched and its kernel loaded.
  explicit CacheFlusher(int device);
  ~CacheFlusher();
  CacheFlusher(const CacheFlusher&) = delete;             // non-copyable
  CacheFlusher& operator=(const CacheFlusher&) = delete;  // non-copyable

  /// Waits for the device, then writes and discards the scratch buffer on the legacy default
  /// stream of the flusher's device (made current for the call, whichever device the caller
  /// had current) and, with `wait`, waits for it. About 51 us on an H200 (60 MiB L2). Without
  /// `wait`, work queued after it on the legacy stream (or a blocking stream) runs after it;
  /// work on a non-blocking stream may overlap it.
  void flush(bool wait = true);
  [[nodiscard]] std::size_t bytes() const { return bytes_; }

 private:
  int device_ = 0;
  void* buffer_ = nullptr;
  std::size_t bytes_ = 0;
  int blocks_ = 0;
  unsigned char value_ = 0;
};

}  // namespace kscope::cuda
