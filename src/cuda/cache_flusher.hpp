#pragma once
// cache_control "all" and "region": at the entry of every annotated region (and with "all" before
// every later kernel of the region too), write a scratch buffer of twice
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
  /// The flush before a kernel of a region after its first, from the tool's launch callback:
  /// waits for the device (the region's earlier kernels, on any stream, end first), then writes
  /// and discards the scratch buffer on `stream` (a CUstream: the stream the kernel is about to
  /// be launched on), without waiting for it: the kernel queued behind it on that stream starts
  /// after it. Nothing when the caller's current device is not the flusher's (a kernel on
  /// another GPU) or when `stream` is capturing a graph (the graph's launch is flushed instead).
  void flush_before_kernel(void* stream);
  [[nodiscard]] std::size_t bytes() const { return bytes_; }

 private:
  int device_ = 0;
  void* buffer_ = nullptr;
  std::size_t bytes_ = 0;
  int blocks_ = 0;
  unsigned char value_ = 0;
};

}  // namespace kscope::cuda
