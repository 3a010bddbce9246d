#pragma once
// One counter data image and the CUPTI sessions recorded into it: the unit the range profiler is
// configured (SetConfig), decoded and evaluated by. Several Start..Stop sessions append their
// ranges to one image, so the strategies (span, annotation, run sessions) open a batch, add the
// launches of each stopped session and decode it once. It also owns the profiler's capacity (the
// first Start after Enable fixes the ranges a pass holds; a batch needing more re-enables the
// profiler and pays that expensive Start again) and the cost accounting of the DEBUG summary.

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "collect/cupti/range_attribution.hpp"
#include "collect/cupti/range_profiler_api.hpp"
#include "core/kernel_record.hpp"
#include "core/logger.hpp"

namespace kscope::cupti {

class CounterBatch {
 public:
  /// How the batches of a collector are configured.
  struct Setup {
    std::vector<std::uint8_t> config;  ///< the metric set's config image
    MetricColumns columns;             ///< metrics evaluated for every range, with units
    bool user_range = false;
    bool kernel_replay = false;
    int passes_per_run = 1;  ///< executions of a run per batch (user replay re-executes)
    int device = 0;          ///< CUDA ordinal (messages)
  };

  /// `profiler`, `evaluator` and `log` must outlive the batch.
  CounterBatch(RangeProfilerApi& profiler, const MetricEvaluator& evaluator, Setup setup,
               const Logger& log);

  /// Runs an empty session (every pass of it) whose first Start fixes the profiler's capacity at
  /// `ranges` per pass; throws ToolError when CUPTI still expects passes after passes_per_run
  /// + 2 empty ones.
  void prime(std::size_t ranges);
  /// Configures the image for a new batch of at least `ranges` ranges starting at `run`
  /// (re-enabling the profiler with twice that capacity when its own is smaller).
  void open(std::size_t ranges, const RunId& run);
  [[nodiscard]] bool is_open() const { return open_; }
  /// Ranges the configured image holds.
  [[nodiscard]] std::size_t capacity() const { return capacity_; }
  /// Launches of the batch's stopped sessions so far.
  [[nodiscard]] std::size_t size() const { return launches_.size(); }
  /// Nanoseconds since open().
  [[nodiscard]] std::uint64_t age_ns() const;
  /// The batch now also covers `run` (messages).
  void extend_to(const RunId& run) { last_ = run; }
  /// The first and last run the open batch covers.
  [[nodiscard]] const RunId& first_run() const { return first_; }
  [[nodiscard]] const RunId& last_run() const { return last_; }
  /// Appends the launches of a stopped session; `forget_run` clears the annotation of the
  /// launches of that run (a run that did not finish: profiled, never attributed).
  void add(std::vector<ProfiledLaunch> launches, const RunId* forget_run = nullptr);
  /// Start of a session in the open batch (counted for the DEBUG summary).
  void count_session() { ++sessions_; }

  /// Decodes the image and turns its ranges into records (auto ranges: the batch's launches in
  /// order; user ranges: `pushed`, in order), kept until take_records(). Throws ToolError when
  /// ranges were dropped or do not match.
  void decode(const std::string& what, const std::vector<std::string>* pushed = nullptr);
  /// Forgets the open batch (Stop first when `stop_first`), leaving the profiler ready for the
  /// next SetConfig. Never throws.
  void discard(bool stop_first) noexcept;
  /// Hands the config and counter data images to the profiler (hold_images), which CUPTI still
  /// points to: before the batch goes and the profiler stays (kept) or is disabled. The batch is
  /// not used after it.
  void leave_images_with_profiler() noexcept;
  /// Takes back the images a kept profiler holds (the same metric set: its config bytes equal
  /// this batch's), so that its sessions use the buffers it was set up with.
  void adopt_profiler_images();
  /// Records decoded so far; thread-safe (annotation sessions decode on the annotation thread).
  [[nodiscard]] std::vector<KernelRecord> take_records();

  /// "N kernel(s) profiled, M attributed to annotations, in S CUPTI session(s) ... ms".
  [[nodiscard]] std::string cost() const;

 private:
  void size_image(std::size_t ranges);
  void ensure_capacity(std::size_t ranges);
  [[nodiscard]] std::vector<DecodedRange> evaluate(bool with_names);

  RangeProfilerApi& profiler_;
  const MetricEvaluator& evaluator_;
  Setup setup_;
  std::vector<const char*> column_ptrs_;
  const Logger& log_;
  std::vector<std::uint8_t> image_;
  std::size_t capacity_ = 0;
  bool open_ = false;
  std::vector<ProfiledLaunch> launches_;
  RunId first_, last_;
  std::uint64_t opened_ns_ = 0;
  std::mutex records_mu_;
  std::vector<KernelRecord> records_;
  // Cost accounting for the DEBUG summary.
  std::size_t sessions_ = 0, batches_ = 0, profiled_ = 0, attributed_ = 0;
  double batch_ms_ = 0, evaluate_ms_ = 0;
};

}  // namespace kscope::cupti
