#pragma once
// What the counter collection strategies need from the CUPTI Range Profiler: an interface, so that
// batching, sizing and pass scheduling are unit-tested with a fake (RangeProfiler is the real one;
// its header says what each call costs and which call order CUPTI needs).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace kscope::cupti {

class RangeProfilerApi {
 public:
  /// Time spent in one kind of CUPTI call.
  struct StepTime {
    std::size_t calls = 0;
    double milliseconds = 0;
  };

  /// What Stop reports.
  struct StopResult {
    std::size_t pass_index = 0;
    std::size_t target_nesting_level = 0;
    bool all_passes_submitted = false;
  };

  /// How ranges are delimited and replayed (CUpti_ProfilerRange / CUpti_ProfilerReplayMode).
  struct Mode {
    bool user_range = false;
    bool kernel_replay = false;
    std::size_t max_ranges = 1;
  };

  /// Receives one line per CUPTI call ("cuptiRangeProfilerStart -> CUPTI_SUCCESS, 0.02 ms").
  using Trace = std::function<void(std::string_view line)>;

  virtual ~RangeProfilerApi() = default;  // the real one disables its CUPTI object

  /// A session starts with this object (a kept one's next session, or none while it is kept:
  /// `trace` null): where its trace lines go, and its call times from zero.
  virtual void start_session(Trace trace) = 0;
  /// Prints every call through the trace sink while on (the first session of a sweep).
  virtual void set_tracing(bool on) = 0;
  /// Ranges per pass fixed by the first Start since Enable (0: not started yet). A SetConfig
  /// asking for more than this must follow reenable().
  [[nodiscard]] virtual std::size_t range_capacity() const = 0;
  /// Disables the object and enables a new one on the same context (capacity not fixed).
  virtual void reenable() = 0;
  /// Bytes of a counter data image holding `max_ranges` ranges of `metrics`.
  [[nodiscard]] virtual std::size_t counter_data_size(const std::vector<const char*>& metrics,
                                                      std::size_t max_ranges) = 0;
  /// (Re)initialises a counter data image: needed before every SetConfig that uses it.
  virtual void initialize_image(std::vector<std::uint8_t>& image) = 0;
  /// The config and counter data images an object was set up with: CUPTI keeps pointing to them
  /// until Disable, and an object reused by a later session must be given the same buffers again
  /// (on the H200 a kept object configured with new buffers crashed the process).
  struct Images {
    std::vector<std::uint8_t> config;
    std::vector<std::uint8_t> counter_data;
  };
  /// Keeps `images` (the last SetConfig's) for as long as the object lives, or until
  /// take_images(): when the batch that made them ends before the object.
  virtual void hold_images(Images images) = 0;
  /// The images hold_images() kept (empty when none), for the next session's batch.
  [[nodiscard]] virtual Images take_images() = 0;
  /// SetConfig for pass 0 (one nesting level).
  virtual void set_config(const std::vector<std::uint8_t>& config, std::vector<std::uint8_t>& image,
                          const Mode& mode) = 0;
  virtual void start() = 0;
  [[nodiscard]] virtual StopResult stop() = 0;
  virtual void push_range(const std::string& name) = 0;
  virtual void pop_range() = 0;
  /// Decodes the collected passes into the image given to set_config; returns the number of
  /// ranges dropped because the image was full.
  [[nodiscard]] virtual std::size_t decode() = 0;
  /// Ranges stored in a decoded image.
  [[nodiscard]] virtual std::size_t num_ranges(const std::vector<std::uint8_t>& image) = 0;
  /// Name of range `index` ("0", "1", ... for auto ranges; the pushed name for user ranges).
  [[nodiscard]] virtual std::string range_name(const std::vector<std::uint8_t>& image,
                                               std::size_t index) = 0;
  /// Time spent per CUPTI call name since construction.
  [[nodiscard]] virtual const std::map<std::string, StepTime>& step_times() const = 0;
};

/// Evaluates metrics of a decoded counter data image (ProfilerHost is the real one).
class MetricEvaluator {
 public:
  virtual ~MetricEvaluator() = default;
  /// Evaluates `metrics` (all in the config) for range `range` of a decoded counter data image.
  virtual void evaluate(const std::vector<std::uint8_t>& counter_data, std::size_t range,
                        const std::vector<const char*>& metrics, double* values) const = 0;
};

}  // namespace kscope::cupti
