#include "collect/tool_registry.hpp"

#include <algorithm>
#include <stdexcept>

#include "collect/cupti/cupti_collector.hpp"
#include "collect/cupti/resident_cupti.hpp"
#include "collect/ncu/ncu_tool.hpp"
#include "collect/sanitizer/sanitizer_tool.hpp"
#include "core/option_values.hpp"
#include "core/tool_checks.hpp"
#include "core/duration_definition.hpp"
#include "kscope/errors.hpp"

namespace kscope {
namespace {

std::string quoted_names(const std::vector<ToolEntry>& tools) {
  std::string out;
  for (std::size_t i = 0; i < tools.size(); ++i) {
    if (i) out += i + 1 == tools.size() ? " or " : ", ";
    out += "'" + tools[i].name + "'";
  }
  return out;
}

// The first tool with a capability, for messages that name it ("needs the cupti tool").
const std::string& tool_with(bool ToolEntry::*capability) {
  for (const auto& t : tool_entries()) {
    if (t.*capability) return t.name;
  }
  throw std::logic_error("no tool has the capability a check asks for");
}

// The options that need what `tool` cannot do (its capability flags).
void check_capabilities(const ToolEntry& tool, const Options& o) {
  if (o.adaptive.enabled && !tool.adaptive_runs) {
    const std::string& adaptive = tool_with(&ToolEntry::adaptive_runs);
    throw NotSupportedError(
        "runs='auto' needs the " + adaptive + " tool: the stopping rule decides after each "
        "batch of runs from the values measured so far, and tool '" + tool.name +
        "' hands its values to kscope only when the re-executed program has ended "
        "(docs/options.md, \"Adaptive runs\"). Use a fixed runs= with tool '" + tool.name +
        "', or tool '" + adaptive + "'.");
  }
  if (o.duration_source == "events" && !tool.event_timing) {
    const std::string& events = tool_with(&ToolEntry::event_timing);
    throw NotSupportedError(
        "duration_source 'events' is the " + events + " tool's: it records CUDA events in this "
        "process around every annotated region. Tool '" + tool.name + "' measures with its own "
        "profiler; use tool '" + events + "' for event timing.");
  }
  if (o.clock_control == "base" && tool.times_kernels && !tool.locks_clocks) {
    const std::string& locking = tool_with(&ToolEntry::locks_clocks);
    throw NotSupportedError(
        "clock_control 'base' needs the " + locking + " tool: the " + tool.name + " tool "
        "measures with the GPU's clocks as they are (" + tool.why_no_clock_locking + "). Use "
        "tool '" + locking + "' to lock clocks to base, or clock_control 'none'.");
  }
}

}  // namespace

const std::vector<ToolEntry>& tool_entries() {
  static const std::vector<ToolEntry> tools = [] {
    ToolEntry cupti{"cupti"};
    cupti.adaptive_runs = cupti.event_timing = cupti.times_kernels = true;
    cupti.why_no_clock_locking = "CUPTI 13.0 cannot lock clocks";
    cupti.check_options = &cupti::CuptiCollector::check_options;
    cupti.duration_definition = &cupti::CuptiCollector::duration_definition;
    cupti.make = [](const Options&) -> std::unique_ptr<Collector> {
      return std::make_unique<cupti::CuptiCollector>();
    };
    cupti.release = [] { cupti::release_cupti(); };
    ToolEntry ncu{"ncu", "ncu"};
    ncu.times_kernels = ncu.locks_clocks = true;
    ncu.check_options = &ncu::NcuTool::check_options;
    ncu.duration_definition = [](const Options& o) -> std::string {
      return measures_durations(o) ? "ncu" : "";
    };
    ncu.make_external = &ncu::NcuTool::create;
    ToolEntry sanitizer{"sanitizer", "compute-sanitizer"};  // checks memory, times nothing
    sanitizer.checks = true;
    sanitizer.check_options = &sanitizer::SanitizerTool::check_options;
    sanitizer.make_external = &sanitizer::SanitizerTool::create;
    return std::vector<ToolEntry>{cupti, ncu, sanitizer};
  }();
  return tools;
}

void Options::validate() const {
  check_option_values(*this);
  const auto& tools = tool_entries();
  const auto it = std::find_if(tools.begin(), tools.end(),
                               [&](const ToolEntry& t) { return t.name == tool; });
  if (it == tools.end()) {
    throw InvalidArgument("Invalid tool '" + tool + "'. Expected " + quoted_names(tools) + ".");
  }
  check_capabilities(*it, *this);
}

const ToolEntry& find_tool(const std::string& name) {
  for (const auto& t : tool_entries()) {
    if (t.name == name) return t;
  }
  std::string list;
  for (const auto& t : tool_entries()) list += (list.empty() ? "'" : ", '") + t.name + "'";
  throw NotSupportedError("tool '" + name + "' is not available in this kscope build; available: " +
                          list + ".");
}

void release_tools() noexcept {
  for (const auto& t : tool_entries()) {
    if (t.release) t.release();
  }
}

bool tool_checks(const std::string& name) {
  const auto& tools = tool_entries();
  const auto it = std::find_if(tools.begin(), tools.end(),
                               [&](const ToolEntry& t) { return t.name == name; });
  return it != tools.end() && it->checks;
}

std::vector<std::string> available_tools() {
  std::vector<std::string> out;
  for (const auto& t : tool_entries()) out.push_back(t.name);
  return out;
}

}  // namespace kscope
