#pragma once
// Process-wide annotation state. Annotations are process-wide (not per thread) because a kernel
// belongs to the annotation open at its launch, whichever thread launches it; so two annotations
// open at once, from any threads, count as nesting. Collectors read current() from their launch
// callbacks; the session starts and finishes runs.

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/kernel_record.hpp"

namespace kscope {

class AnnotationRegistry {
 public:
  /// The one registry of the process.
  static AnnotationRegistry& instance();

  /// What a launch callback needs to attribute a kernel.
  struct Snapshot {
    int annotation = -1;    ///< interned id of the open annotation, -1 when none is open
    bool in_run = false;    ///< a session run is executing
    RunId run;              ///< valid when in_run
    std::uint64_t sequence = 0;  ///< increasing number for ordering launches
  };

  /// Opens `name`; throws AnnotationError on nesting or on a name reused in the current run.
  /// Returns the NVTX payload for the range (see nvtx_payload()).
  std::uint64_t begin(std::string_view name);
  /// Closes the open annotation; `failed` marks this run of it as failed. No-op when none open.
  void end(bool failed);
  /// Name of the open annotation or "".
  [[nodiscard]] std::string current_name() const;

  /// Hot path for collectors: the open annotation and current run.
  [[nodiscard]] Snapshot snapshot();
  /// Name of an interned annotation id.
  [[nodiscard]] std::string name_of(int id) const;

  /// The session starts a run: names used so far are forgotten.
  void start_run(const RunId& run);
  /// The session finished a run: returns what happened in it. An annotation still open is
  /// closed (and reported as failed).
  RunLog finish_run();

  /// Observers of annotation boundaries (the range profiler pushes/pops its user ranges here,
  /// the re-executed child records them). Called in registration order, under no lock, on the
  /// thread that opens/closes the annotation; also when finish_run() closes a forgotten one.
  using Listener = std::function<void(bool entering, const std::string& name)>;
  /// Adds a listener; the token removes it again.
  [[nodiscard]] std::size_t add_listener(Listener listener);
  void remove_listener(std::size_t token) noexcept;

  /// Called by begin() inside a run, after its checks and before the annotation opens, under no
  /// lock, on the opening thread: the session's ANNOTATION-scope info collectors. One at a time;
  /// an empty hook removes it.
  using EntryHook = std::function<void(const std::string& name)>;
  void set_entry_hook(EntryHook hook);

  /// Options::cuda_graph's capture of a region (api/region_graphs.hpp), inside a run: `opened`
  /// right after the entry hook (the region's cache flush), before the annotation opens;
  /// `closing` from closing(), while it is still open; `closing` must not throw (it runs in
  /// kscope::Annotation's destructor). Empty hooks remove them.
  struct CaptureHooks {
    std::function<void(const std::string& name)> opened;
    std::function<void(bool failed)> closing;
  };
  void set_capture_hooks(CaptureHooks hooks);
  /// An annotation is about to close (kscope::end_annotation calls it before its NVTX range
  /// ends): runs the capture hooks' `closing`, so that a captured region is launched inside its
  /// annotation and its NVTX range. No-op when none is open or no hook is set.
  void closing(bool failed);
  /// The run executing; nullopt outside runs.
  [[nodiscard]] std::optional<RunId> current_run() const;

  /// NVTX payload of a range opened in `run`: bit 63 set, config in bits 32..62, run in 0..31.
  /// 0 outside a session. The ncu tool reads it back from the report to map ranges to runs.
  [[nodiscard]] static std::uint64_t nvtx_payload(const RunId& run, bool in_run);
  /// Inverse of nvtx_payload; false when the payload carries no run.
  static bool decode_payload(std::uint64_t payload, RunId* run);

 private:
  AnnotationRegistry() = default;
  int intern(std::string_view name);  // requires mu_
  void check_can_open(std::string_view name) const;  // requires mu_; throws AnnotationError
  std::vector<Listener> listeners() const;  // requires mu_
  static void notify(const std::vector<Listener>& listeners, bool entering, const std::string& name);

  mutable std::mutex mu_;
  std::vector<std::string> names_;
  std::unordered_map<std::string, int> ids_;
  int open_ = -1;
  bool in_run_ = false;
  RunId run_;
  std::uint64_t sequence_ = 0;
  std::unordered_set<int> used_;
  RunLog log_;
  std::vector<std::pair<std::size_t, Listener>> listeners_;
  std::size_t next_token_ = 1;
  EntryHook entry_hook_;
  CaptureHooks capture_hooks_;
};

}  // namespace kscope
