#pragma once
// The child's side of the re-execution protocol (docs/tools/ncu.md). A program re-run under an
// external tool (ncu, compute-sanitizer) carries the child marker in its environment; there,
// kscope::profile runs only the marked session, measures nothing itself (the external tool
// does), writes a ChildReport for the parent and ends the process.

#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "core/run_environment.hpp"
#include "kscope/profile.hpp"
#include "subprocess/child_marker.hpp"

namespace kscope {

/// What the child's session needs from the device.
struct ChildDevice {
  /// Synchronisation around runs; no cache flush (the child runs with cache_control "none": the
  /// external tool controls the caches).
  std::unique_ptr<RunEnvironment> environment;
  Metadata metadata;                            ///< reported to the parent
  int device = 0;
  /// Ends the use of the device before the child exits, when the parent asks (KSCOPE_CHILD_SCOPE
  /// "release"): compute-sanitizer finishes its report when the CUDA context is destroyed. May
  /// be empty.
  std::function<void()> release;
};
/// Makes the ChildDevice; the default needs a GPU (throws NoDeviceError otherwise).
using ChildDeviceFactory = std::function<ChildDevice(const Options&)>;
[[nodiscard]] ChildDevice gpu_child_device(const Options& options);

/**
 * Called by kscope::profile when `marker` is present. For any other session than the marked one
 * it returns Results without rows (complete() false) and runs nothing, so the program continues
 * to the marked call. For the marked session it runs the configs x runs with the passive
 * ChildCollector (no CUPTI: the external tool is the process's CUPTI client), writes the child
 * report (runs, annotation trace, metadata, or the error that ended the session) and ends the
 * process with status 0 (1 after an error) without returning: nothing after the marked session
 * runs in the child. KSCOPE_CHILD_SCOPE (subprocess/child_scope.hpp) may narrow the session down
 * to some configs run once, end it at an annotation boundary, and reset the device at the end.
 */
[[nodiscard]] Results run_child_session(const subprocess::ChildMarker& marker,
                                        std::string_view name, int id,
                                        const std::vector<Config>& configs, const Benchmark& fn,
                                        const Options& options,
                                        const ChildDeviceFactory& device = gpu_child_device);

}  // namespace kscope
