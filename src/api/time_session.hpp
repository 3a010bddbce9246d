#pragma once
// kscope::time without the device: its options as a session's, the Session over one config
// without a journal, and the Timing of the session's records. What touches the device (the cupti
// tool, the cache flush, the synchronisation) comes in as a Collector and a RunEnvironment, so
// CPU tests run the same path with fakes.

#include <functional>

#include "core/collector.hpp"
#include "core/run_environment.hpp"
#include "core/host_times.hpp"
#include "kscope/time.hpp"

namespace kscope {

/// The profile() options kscope::time's session runs with, validated (the same texts as
/// profile()'s): `options`' run count, warm-up, cache control, duration source, ignore list,
/// verbosity and log; no thermal guard, the kernels of one call summed.
[[nodiscard]] Options session_options(const TimeOptions& options);

/// kscope::time on `collector` (begun and ended by the session) and `environment`, measuring on
/// CUDA device `device`; `session` is session_options(`options`), made by the caller (time()
/// needs it before the device's parts). The session's fixed steps are timed after those in
/// `times` (time() times its own set-up there first), and at DEBUG printed with the host time
/// per call. Checks what time() promises: an empty callable and a call inside a profile() run
/// are refused, a callable that launches no kernel is an ExtractionError.
[[nodiscard]] Timing time_session(const std::function<void()>& fn, const TimeOptions& options,
                                  const Options& session, Collector& collector,
                                  RunEnvironment& environment, int device, HostTimes& times);

}  // namespace kscope
