#pragma once
// Kernels with planted bugs for the sanitizer GPU tests (built with -lineinfo), callable from
// plain C++ test files. None checks for errors: what compute-sanitizer finds is the point.

#include <cstddef>

namespace kscope::testing {

/// p[i] = i for i < n + extra: with extra > 0 an out-of-bounds write past an n-int buffer.
void launch_write_indices(int* p, int n, int extra);
/// Threads of one block write the same shared-memory slots without synchronisation (a race);
/// writes 256 ints to out.
void launch_shared_race(int* out);
/// out[i] = in[i] + 1 for 64 threads: an uninitialised read when `in` was never written.
void launch_read_input(const int* in, int* out);
/// c = a + b over n ints: a clean kernel.
void launch_add(const int* a, const int* b, int* c, int n);
/// Doubles x[2t] and x[2t+1] for t < (n + 1) / 2: one element past the end when n is odd (the
/// tail of a pairwise loop forgotten), correct for even n.
void launch_double_pairs(float* x, int n);

int* device_ints(std::size_t n);  ///< cudaMalloc'ed, not initialised
float* device_floats_zeroed(std::size_t n);
void zero_ints(int* p, std::size_t n);
void free_device_memory(void* p);  ///< cudaFree; errors ignored
void synchronize_quietly();        ///< cudaDeviceSynchronize; errors ignored

}  // namespace kscope::testing
