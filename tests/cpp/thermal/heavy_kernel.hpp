#pragma once
// A kernel that keeps every SM busy with FMAs for a chosen time: enough power draw to move
// clocks, temperature and power readings (GPU telemetry tests).

namespace kscope::testing {

/// FMA chains on every SM; `iterations` per thread sets the duration.
void launch_fma_burn(long long iterations, float* sink);
/// Iterations for which one launch of launch_fma_burn takes about `ms` milliseconds.
long long fma_iterations_for_ms(double ms, float* sink);

}  // namespace kscope::testing
