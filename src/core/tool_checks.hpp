#pragma once
// What a result's tool means for how it reads, asked where the tool is known only by its name
// (the readers of journals and result files in src/report/, which cannot see src/collect/): the
// tool registry answers (collect/tool_registry.cpp defines it, as it defines
// Options::validate()), so that no reader tests for a tool's name.

#include <string>

namespace kscope {

/// Whether tool `name` checks the program instead of measuring it, so that its findings are its
/// result, even none (ToolEntry::checks, Results::checked()); false for a tool this build lacks.
[[nodiscard]] bool tool_checks(const std::string& name);

}  // namespace kscope
