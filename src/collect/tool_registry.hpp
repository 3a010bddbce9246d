#pragma once
// Name -> tool. Adding a tool is a folder under src/collect/ plus one entry in
// tool_registry.cpp; the session, profile() and core never change. An entry carries the tool's
// rules: what it can do (the capability flags, from which Options::validate() refuses the
// options that need what it cannot) and its own option checks.

#include <memory>
#include <string>
#include <vector>

#include "collect/external_tool.hpp"
#include "core/collector.hpp"
#include "kscope/options.hpp"

namespace kscope {

struct ToolEntry {
  std::string name;
  /// The external program it runs, looked up on PATH ("ncu"); nullptr for in-process tools.
  const char* program = nullptr;
  /// Hands values over after each batch of runs, so that runs='auto' can decide (in process).
  bool adaptive_runs = false;
  /// Can time regions with CUDA events (duration_source 'events', in process).
  bool event_timing = false;
  /// Measures kernel durations (so that clock_control matters to it).
  bool times_kernels = false;
  /// Locks the GPU's clocks (clock_control 'base').
  bool locks_clocks = false;
  /// Checks the program instead of measuring it: its findings are its result, even none
  /// (Results::checked(); tool_checks() answers it for the readers of files).
  bool checks = false;
  /// For a tool that times kernels without locking clocks: why it cannot lock them.
  const char* why_no_clock_locking = nullptr;
  /// What makes its gpu__time_duration.sum values with `options` (Metadata::duration_definition;
  /// "" when the options measure none); nullptr: it measures no duration.
  std::string (*duration_definition)(const Options&) = nullptr;
  /// Pre-GPU checks of the options this tool cannot honour (throws NotSupportedError).
  void (*check_options)(const Options&) = nullptr;
  /// Creates the in-process collector (in-process tools, e.g. cupti).
  std::unique_ptr<Collector> (*make)(const Options&) = nullptr;
  /// Creates the tool for re-executing tools (ncu, sanitizer), which profile() runs in the
  /// parent instead of an in-process session; nullptr for in-process tools. Finding the external
  /// program happens here, so a missing tool fails before any work.
  std::unique_ptr<ExternalTool> (*make_external)(const Options&) = nullptr;
  /// Gives up what the tool keeps loaded between sessions (kscope::release); nullptr: nothing.
  void (*release)() = nullptr;
};

/// Every tool's release (kscope::release; also before a re-executing tool starts its child).
void release_tools() noexcept;

/// The tool named by options.tool; throws NotSupportedError when this build lacks it.
[[nodiscard]] const ToolEntry& find_tool(const std::string& name);

/// The tools this build has, in the order messages list them.
[[nodiscard]] const std::vector<ToolEntry>& tool_entries();

/// Names of the tools this build has.
[[nodiscard]] std::vector<std::string> available_tools();

}  // namespace kscope
