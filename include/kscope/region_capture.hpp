#pragma once
/// @file region_capture.hpp
/// Options::cuda_graph in C++: a RegionCapture for the kernels a region launches on one stream.
///
/// @code
///   cudaStream_t s;
///   cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
///   kscope::Options opt;
///   opt.cuda_graph = true;
///   opt.region_capture = kscope::stream_region_capture(s);
///   kscope::profile("vadd", configs, [&](const kscope::Config& c) {
///     kscope::Annotation a("vadd");
///     vadd<<<grid, block, 0, s>>>(x, y, n);  // on s: captured, then replayed
///   }, opt);
/// @endcode

#include "kscope/options.hpp"

struct CUstream_st;  // cudaStream_t is CUstream_st*

namespace kscope {

/// Captures what a region launches on `stream` (cudaStreamBeginCapture in thread-local mode),
/// instantiates it and launches the graph on `stream`; replays launch it there again. The
/// regions' kernels must go to `stream`, which cannot be the legacy default stream (0); work
/// launched before a region on other streams must be finished or ordered before it (the cache
/// flush of cache_control "all" synchronises the device). CUDA errors throw kscope::Error naming
/// the call. The graphs are destroyed by clear() and with the last copy of the RegionCapture.
[[nodiscard]] RegionCapture stream_region_capture(CUstream_st* stream);

}  // namespace kscope
