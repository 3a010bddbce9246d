#pragma once
// Name -> tool. Adding a tool is a folder under src/collect/ plus one entry in
// tool_registry.cpp; the session and profile() never change.

#include <memory>
#include <string>
#include <vector>

#include "core/collector.hpp"
#include "kscope/options.hpp"

namespace kscope {

struct ToolEntry {
  std::string name;
  /// Pre-GPU checks of the options this tool cannot honour (throws NotSupportedError).
  void (*check_options)(const Options&) = nullptr;
  /// Creates the in-process collector.
  std::unique_ptr<Collector> (*make)(const Options&) = nullptr;
};

/// The tool named by options.tool; throws NotSupportedError when this build lacks it.
[[nodiscard]] const ToolEntry& find_tool(const std::string& name);

/// Names of the tools this build has.
[[nodiscard]] std::vector<std::string> available_tools();

}  // namespace kscope
