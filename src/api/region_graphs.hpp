#pragma once
// Options::cuda_graph (docs/options.md, "CUDA graphs"): the benchmark wrapped so that, per
// config, its first measured execution runs it with every annotated region captured through
// Options::region_capture and launched once, and its later executions (runs and replay passes)
// launch the captured regions again, in order and each inside its annotation, instead of running
// it. Warm-up runs run it as usual. A capture that fails, or a region that fails while captured,
// leaves nothing to replay: the next execution captures again.

#include "kscope/options.hpp"
#include "kscope/profile.hpp"

namespace kscope {

/// `fn` replaying its regions as above; `capture` must be complete (Options::validate).
[[nodiscard]] Benchmark replaying_regions(Benchmark fn, RegionCapture capture);

/// What a session runs: replaying_regions(fn, options.region_capture) with options.cuda_graph,
/// else `fn`.
[[nodiscard]] Benchmark session_benchmark(const Benchmark& fn, const Options& options);

}  // namespace kscope
