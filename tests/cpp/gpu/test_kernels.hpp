#pragma once
// Kernels with known work for GPU tests, callable from plain C++ test files.

#include <cstddef>

struct CUstream_st;  // cudaStream_t

namespace kscope::testing {

/// c = a + b over n floats (reads 8n bytes, writes 4n).
void launch_vadd(const float* a, const float* b, float* c, std::size_t n);
/// y = s * x over n floats.
void launch_scale(float* y, const float* x, float s, std::size_t n);
/// Sums n floats into *out (reads 4n bytes).
void launch_read_sum(const float* x, std::size_t n, float* out);
/// Spins for about `ns` nanoseconds on one block (a kernel of known duration).
void launch_spin(long long ns);
// On a stream of the test's own (cuda_graph captures it).
void launch_spin_on(long long ns, CUstream_st* stream);
void launch_empty_on(CUstream_st* stream);
[[nodiscard]] CUstream_st* new_stream();
void destroy_stream(CUstream_st* stream);
/// An empty kernel.
void launch_empty();
/// Tries to launch with 4096 threads per block; returns the cudaError_t (a launch error that
/// later work survives).
int launch_with_too_many_threads();
/// A kernel that writes to an invalid address: a sticky error, the process's context is lost.
void launch_illegal_write();
/// Fills n floats with `value`.
void launch_fill(float* x, float value, std::size_t n);

/// Device-to-device copy rate in bytes/s counting bytes read plus bytes written, measured with
/// CUDA events over `bytes`-sized buffers (median of several copies).
double measure_copy_rate(std::size_t bytes);

/// A cudaMalloc of 4 TiB that fails and leaves its out of memory pending (for the next
/// cudaGetLastError); returns the cudaError_t it returned.
int fail_a_malloc_and_leave_the_error_pending();
/// cudaGetLastError(): the pending error, which it clears.
int take_last_error();
/// cudaMalloc that throws on failure (clearing the error, as torch's allocator does).
float* device_floats(std::size_t n);
void free_device(void* p);
void synchronize();

}  // namespace kscope::testing
