#pragma once
/// @file profile.hpp
/// kscope::profile: run a benchmark callable over configs x runs and measure the kernels
/// launched inside its annotations.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "kscope/config.hpp"
#include "kscope/options.hpp"
#include "kscope/results.hpp"

namespace kscope {

/// The benchmark: called once per (config, run). Allocate and warm up outside annotations;
/// launch the kernels to measure inside kscope::Annotation scopes.
using Benchmark = std::function<void(const Config& config)>;

/**
 * Runs `fn` for every config `options.runs` times (after `options.warmup_runs` unmeasured
 * runs), measures the kernels launched inside annotations with `options.tool`, and returns
 * raw and processed results.
 *
 * Order of work: options and configs are validated, then the device is checked (no GPU ->
 * kscope::NoDeviceError "no CUDA device: ..."), then the tool starts. Before every run the
 * thermal guard may pause and, with cache_control "all", the L2 cache is flushed. Finished
 * runs are appended to a journal under the output prefix as they complete.
 *
 * Exceptions thrown by `fn` propagate after the journal has been closed.
 */
[[nodiscard]] Results profile(std::string_view name, std::vector<Config> configs,
                              const Benchmark& fn, const Options& options = {});

/// Gives up what kscope keeps loaded between profile() and kscope::time calls of the process
/// (docs/cost.md): the cupti tool's CUPTI subscription and kernel activity records, a range
/// profiler kept by KSCOPE_KEEP_COUNTERS_S (which holds the GPU's counters for every process),
/// NVML, and kscope::time's cache flush buffers (2 x L2 per device). The next call sets them up
/// again, which costs what a process's first call pays for them (tens of
/// milliseconds on an H200; docs/cost.md has the measured figures).
/// Call it before another CUPTI client needs the process (a profiler of your own; kscope's Python
/// front does it before torch.profiler starts) and before cudaDeviceReset (the kept buffers and
/// a kept range profiler belong to the CUDA context); kscope calls it at exit and before ncu or
/// compute-sanitizer re-run the program. Between profile() calls a held subscription costs each
/// kernel launch of the process about a microsecond. Does not throw.
void release() noexcept;

/// A check kscope calls, on the thread that called profile(), while it waits without running
/// the benchmark: every 100 ms for a child process (a part of the ncu or compute-sanitizer
/// tool), every 50 ms for the GPU's lock, every 0.5 s while the thermal guard waits for the GPU
/// to cool. An exception it throws ends the wait (a child is stopped: SIGTERM, then SIGKILL
/// after 5 s) and leaves profile() unchanged, after the journal is closed with what was
/// measured, as the benchmark's own exceptions do. The Python front sets
/// one that raises KeyboardInterrupt for a pending Ctrl-C (docs/faults.md). An empty function
/// removes it.
void set_interrupt_check(std::function<void()> check);

/// kscope's version string ("0.1.0").
[[nodiscard]] const char* version();

/// Whether a usable CUDA device is present; if not, `reason` (when given) receives the
/// explanation profile()'s NoDeviceError would carry. For test suites and tools that skip.
[[nodiscard]] bool device_available(std::string* reason = nullptr);

/// Names of the collection tools this build has (values of Options::tool that profile() can
/// run), e.g. {"cupti"}.
[[nodiscard]] std::vector<std::string> available_tools();

}  // namespace kscope
