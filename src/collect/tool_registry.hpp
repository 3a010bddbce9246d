#pragma once
// Name -> tool. Adding a tool is a folder under src/collect/ plus one entry in
// tool_registry.cpp; the session and profile() never change.

#include <memory>
#include <string>
#include <vector>

#include "collect/external_tool.hpp"
#include "core/collector.hpp"
#include "kscope/options.hpp"

namespace kscope {

struct ToolEntry {
  std::string name;
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

/// Names of the tools this build has.
[[nodiscard]] std::vector<std::string> available_tools();

}  // namespace kscope
