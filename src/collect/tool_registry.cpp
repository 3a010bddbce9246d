#include "collect/tool_registry.hpp"

#include "collect/cupti/cupti_collector.hpp"
#include "collect/cupti/resident_cupti.hpp"
#include "collect/ncu/ncu_tool.hpp"
#include "collect/sanitizer/sanitizer_tool.hpp"
#include "kscope/errors.hpp"

namespace kscope {
namespace {

const std::vector<ToolEntry>& entries() {
  static const std::vector<ToolEntry> tools = {
      {"cupti", &cupti::CuptiCollector::check_options,
       [](const Options&) -> std::unique_ptr<Collector> {
         return std::make_unique<cupti::CuptiCollector>();
       },
       nullptr, [] { cupti::release_cupti(); }},
      {"ncu", &ncu::NcuTool::check_options, nullptr, &ncu::NcuTool::create},
      {"sanitizer", &sanitizer::SanitizerTool::check_options, nullptr,
       &sanitizer::SanitizerTool::create},
  };
  return tools;
}

}  // namespace

const ToolEntry& find_tool(const std::string& name) {
  for (const auto& t : entries()) {
    if (t.name == name) return t;
  }
  std::string list;
  for (const auto& t : entries()) list += (list.empty() ? "'" : ", '") + t.name + "'";
  throw NotSupportedError("tool '" + name + "' is not available in this kscope build; available: " +
                          list + ".");
}

void release_tools() noexcept {
  for (const auto& t : entries()) {
    if (t.release) t.release();
  }
}

std::vector<std::string> available_tools() {
  std::vector<std::string> out;
  for (const auto& t : entries()) out.push_back(t.name);
  return out;
}

}  // namespace kscope
