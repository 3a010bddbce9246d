#pragma once
// Kernels with exactly known hardware work for the counter GPU tests, callable from C++.

#include <cstddef>
#include <cstdint>

namespace kscope::testing {

/// Reads `bytes` (a multiple of 16) from `x` once, writing nothing unless the data sum to a
/// sentinel (it never does for zeroed memory): dram__bytes_read.sum of a cold cache is `bytes`.
void launch_read(const void* x, std::size_t bytes, float* sink);
/// An FFMA loop of blocks x threads threads, each doing 2 FFMA per
/// iteration, so smsp__sass_thread_inst_executed_op_ffma_pred_on.sum = blocks*threads*iters*2.
void launch_ffma(float* out, int blocks, int threads, int iters);
/// p[i] += 1 for n ints (in place: shows whether a replay leaked into memory).
void launch_increment(int* p, std::size_t n);
/// One thread spinning on %globaltimer for about `ns` nanoseconds.
void launch_spin_ns(long long ns);
/// launch_read captured into a CUDA graph once (at construction, outside any profiling), then
/// launched with one cuGraphLaunch per launch().
class ReadGraph {
 public:
  ReadGraph(const void* x, std::size_t bytes, float* sink);
  ~ReadGraph();
  ReadGraph(const ReadGraph&) = delete;
  ReadGraph& operator=(const ReadGraph&) = delete;
  void launch();

 private:
  void* stream_ = nullptr;  // cudaStream_t
  void* graph_ = nullptr;   // cudaGraph_t
  void* exec_ = nullptr;    // cudaGraphExec_t
};

/// cudaMalloc + cudaMemset(0) of `bytes`; throws std::runtime_error on failure.
void* device_zeroed(std::size_t bytes);
void device_free(void* p);
/// cudaMemset (a driver memset, not a kernel launch the launch callbacks see) + synchronise.
void device_memset(void* p, int value, std::size_t bytes);
/// cudaMemcpy device to device (synchronous).
void device_copy(void* dst, const void* src, std::size_t bytes);
/// cudaDeviceSynchronize that throws on failure.
void device_synchronize();
/// Copies one int back from the device.
int read_int(const int* p, std::size_t index);
/// L2 size of the current device in bytes.
std::size_t l2_bytes();

}  // namespace kscope::testing
