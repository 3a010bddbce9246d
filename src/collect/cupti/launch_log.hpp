#pragma once
// What the counter collection sees of the benchmark while it runs: the run in progress, the
// kernel launches the CUPTI launch callbacks report inside an open CUPTI session (in launch
// order: the k-th launch is the k-th auto range), the user ranges pushed, the launch and
// annotation counts that size counter data images, and the first error raised on a callback or
// annotation thread. Shared by the session thread, the launching threads and the annotation
// listener, so every member is behind one mutex. Plain logic: unit-tested with synthetic events.

#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "collect/cupti/launch_callbacks.hpp"
#include "collect/cupti/range_attribution.hpp"
#include "core/kernel_record.hpp"

namespace kscope::cupti {

class LaunchLog : public LaunchObserver {
 public:
  /// Largest counts seen so far, over the runs that ended.
  struct Sizes {
    std::size_t run_launches = 0;         ///< kernels of one run (warm-up runs included)
    std::size_t measured_launches = 0;    ///< kernels of one measured run
    std::size_t annotation_launches = 0;  ///< kernels of one annotation
    std::size_t run_annotations = 0;      ///< annotations of one run
    std::size_t cycle_launches = 0;       ///< kernels profiled between two run ends
  };

  /// `context`: the CUcontext profiled; launches into another one get no range (null: any).
  explicit LaunchLog(void* context = nullptr) : context_(context) {}

  // The run (session thread).
  void begin_run(const RunId& run);
  void end_run();
  [[nodiscard]] RunId run() const;
  [[nodiscard]] bool in_run() const;
  [[nodiscard]] bool measured() const;

  /// Counts an annotation boundary; true when the strategy should act on it: inside a measured
  /// run with no error pending.
  bool note_annotation(bool entering);

  // CUPTI sessions.
  /// A session (Start) begins: its launches are recorded from now on.
  void open_session(const std::string& what);
  /// The open session ends (before Stop): false when none was open; otherwise its launches (in
  /// order) and what it covered go to the arguments, and the open user range, if any, is
  /// reported in `range_open`.
  bool close_session(std::vector<ProfiledLaunch>* launches, std::string* what = nullptr,
                     bool* range_open = nullptr);
  [[nodiscard]] bool profiling() const;
  [[nodiscard]] std::size_t session_size() const;
  [[nodiscard]] std::string session_what() const;
  /// The open session's launches when one of them was a graph launch, else empty.
  [[nodiscard]] std::vector<ProfiledLaunch> launches_if_graph() const;
  [[nodiscard]] std::vector<ProfiledLaunch> session_launches() const;

  // User ranges (range replay).
  void range_pushed(const std::string& name);
  /// Whether a user range is open; it is closed either way.
  bool take_open_range();
  void clear_pushed();
  [[nodiscard]] std::vector<std::string> pushed() const;
  /// One entry per user range (with its kernel count) or per launch of the open session: what
  /// every replay pass must repeat.
  [[nodiscard]] std::vector<std::string> pass_trace(bool user_range) const;

  [[nodiscard]] Sizes sizes() const;

  // Errors raised on callback and annotation threads, rethrown on the session thread.
  void fail(std::exception_ptr error) noexcept;  // keeps the first
  [[nodiscard]] bool failed() const;
  /// Rethrows (and forgets) the pending error, if any.
  void rethrow();

  void on_launch(const LaunchEvent& event) noexcept override;

 private:
  void* context_ = nullptr;
  mutable std::mutex mu_;
  RunId run_;
  bool in_run_ = false;
  bool measured_ = false;
  bool profiling_ = false;   // between Start and Stop
  bool range_open_ = false;  // a user range is pushed
  std::string what_;
  std::vector<ProfiledLaunch> launches_;                          // of the open session
  std::unordered_map<std::uint32_t, std::string> entry_symbols_;  // correlation id -> kernel
  std::vector<std::string> pushed_;                               // user ranges of this pass
  bool graph_ = false;                                            // a graph launch in the session
  std::uint64_t next_sequence_ = 0;
  std::size_t run_launches_ = 0, annotation_launches_ = 0, run_annotations_ = 0, cycle_launches_ = 0;
  Sizes max_;
  std::exception_ptr error_;
};

}  // namespace kscope::cupti
