#pragma once
/// @file timeline.hpp
/// When things happened in a session: the host phases of every run and the GPU start and end of
/// every kernel the tool timed, on one clock (the host's steady clock, CLOCK_MONOTONIC on Linux,
/// in nanoseconds). The trace writer (`--format trace`) draws them; docs/output-schema.md
/// documents how they are saved ("timeline" in results, "phases" in journal lines).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kscope {

/// One interval of the host side of a session.
struct PhaseSpan {
  /// "environment before" (info collectors, tool memory save/restore, thermal guard, telemetry),
  /// "tool before", "benchmark", "synchronize", "tool after", "environment after", "journal"
  /// (tool flush and journal write, outside runs), "region entry" (inside "benchmark": the L2
  /// flush of cache_control "all" and ANNOTATION-scope info collectors).
  std::string phase;
  std::optional<std::size_t> config;  ///< index into Results::configs(); nullopt outside runs
  std::optional<std::size_t> run;     ///< run index within the config; nullopt outside runs
  bool warmup = false;                ///< a warm-up run (executed, never measured)
  int pass = 0;                       ///< replay pass of the run (0 without replay)
  std::string annotation;             ///< "region entry": the region entered; "" otherwise
  std::int64_t start_ns = 0;          ///< host steady clock, ns
  std::int64_t end_ns = 0;            ///< host steady clock, ns
  std::size_t part = 0;               ///< index into Timeline::parts (0 in one process's)
};

/// One kernel as the tool timed it on the GPU (tool "cupti" without counters).
struct KernelSpan {
  std::string annotation;
  std::string kernel;                  ///< demangled base name
  std::size_t config = 0;              ///< index into Results::configs()
  std::size_t run = 0;                 ///< run index within the config
  bool warmup = false;                 ///< launched in a warm-up run
  int device = 0;                      ///< CUDA ordinal
  std::optional<std::uint32_t> stream; ///< CUDA stream id as CUPTI reports it
  std::int64_t start_ns = 0;           ///< GPU start, on the host steady clock, ns
  std::int64_t end_ns = 0;             ///< GPU end, on the host steady clock, ns
  std::size_t part = 0;                ///< index into Timeline::parts (0 in one process's)
};

/// Everything timed in a session. Empty for results saved before kscope recorded it, and for
/// tools that do not time kernels in process (ncu, sanitizer: no kernel spans).
struct Timeline {
  std::vector<PhaseSpan> phases;   ///< in the order recorded (a merge: part by part)
  std::vector<KernelSpan> kernels; ///< in launch order (a merge: part by part)
  /// kscope::merge: the process each span's `part` indexes, named by its rank and file, e.g.
  /// "rank 1: shard-1.json". Each part's times are on its own host's clock. Empty in the
  /// timeline of one process (every span's part is 0).
  std::vector<std::string> parts;
  [[nodiscard]] bool empty() const { return phases.empty() && kernels.empty(); }
};

}  // namespace kscope
