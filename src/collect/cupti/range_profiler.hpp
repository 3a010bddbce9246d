#pragma once
// The target side of the CUPTI Range Profiler (cupti_range_profiler.h) on one CUDA context,
// following the call sequence verified on an H200 (shared/probes/rp_test*.cu):
//   Enable -> GetCounterDataSize -> CounterDataImageInitialize -> SetConfig
//   -> { Start [Push/Pop] ... Stop } until all passes are submitted -> DecodeData
//   -> GetCounterDataInfo / CounterDataGetRangeInfo -> (host) EvaluateToGpuValues -> Disable.
// Every call is timed; with a trace sink, each call's result and duration is printed, so one
// DEBUG run on a GPU shows which step failed.
//
// Capacity (measured on the H200, CUDA 13.0, bench/RESULTS.md): the first Start after Enable
// sets the profiler up for the maxRangesPerPass of the SetConfig before it and costs ~150 ms
// plus ~0.75 ms per range (32 ranges: ~170-210 ms, 256: ~320-440 ms, 2048: ~2 s); later Starts cost
// ~7 ms whatever they ask for, but a later SetConfig asking for more ranges than that first one
// silently records at most twice as many (no dropped-range count either). So the capacity is
// fixed at the first Start (range_capacity()) and only a new object (reenable()) can grow it.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace kscope::cupti {

class RangeProfiler {
 public:
  /// Receives one line per CUPTI call ("cuptiRangeProfilerStart -> CUPTI_SUCCESS, 0.02 ms").
  using Trace = std::function<void(std::string_view line)>;

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

  /// cuptiRangeProfilerEnable on `context` (a CUcontext). One object per context and mode:
  /// switching between auto and user range needs a new object (pitfall 4).
  RangeProfiler(void* context, Trace trace);
  ~RangeProfiler();  // cuptiRangeProfilerDisable
  RangeProfiler(const RangeProfiler&) = delete;             // owns a CUPTI object
  RangeProfiler& operator=(const RangeProfiler&) = delete;  // owns a CUPTI object

  /// Prints every call through the trace sink while on (the first session of a sweep).
  void set_tracing(bool on) { tracing_ = on; }

  /// Ranges per pass fixed by the first Start since Enable (0: not started yet). A SetConfig
  /// asking for more than this must follow reenable().
  [[nodiscard]] std::size_t range_capacity() const { return capacity_; }
  /// Disables the object and enables a new one on the same context (capacity not fixed).
  void reenable();

  /// Bytes of a counter data image holding `max_ranges` ranges of `metrics`.
  [[nodiscard]] std::size_t counter_data_size(const std::vector<const char*>& metrics,
                                              std::size_t max_ranges);
  /// (Re)initialises a counter data image: needed before every SetConfig that uses it.
  void initialize_image(std::vector<std::uint8_t>& image);
  /// cuptiRangeProfilerSetConfig for pass 0 (one nesting level).
  void set_config(const std::vector<std::uint8_t>& config, std::vector<std::uint8_t>& image,
                  const Mode& mode);
  void start();
  [[nodiscard]] StopResult stop();
  void push_range(const std::string& name);
  void pop_range();
  /// Decodes the collected passes into the image given to set_config; returns the number of
  /// ranges dropped because the image was full.
  [[nodiscard]] std::size_t decode();

  /// Ranges stored in a decoded image.
  [[nodiscard]] std::size_t num_ranges(const std::vector<std::uint8_t>& image);
  /// Name of range `index` ("0", "1", ... for auto ranges; the pushed name for user ranges).
  [[nodiscard]] std::string range_name(const std::vector<std::uint8_t>& image, std::size_t index);

  /// Time spent per CUPTI call name since construction.
  [[nodiscard]] const std::map<std::string, StepTime>& step_times() const { return steps_; }

 private:
  // Records the call's duration, traces it, and throws CuptiError when it failed.
  void finish(const char* call, int result, double milliseconds);

  void enable();
  void disable();  // throws CuptiError; leaves no object either way

  void* context_ = nullptr;  // CUcontext
  void* object_ = nullptr;   // CUpti_RangeProfiler_Object*
  std::size_t configured_ranges_ = 0;  // maxRangesPerPass of the last SetConfig
  std::size_t capacity_ = 0;           // fixed by the first Start
  Trace trace_;
  bool tracing_ = false;
  std::map<std::string, StepTime> steps_;
};

}  // namespace kscope::cupti
