#pragma once
// The value checks of Options::validate() that need no tool: each option on its own (its bounds
// and allowed values in the option table) and the rules between options. The tool's name and
// what the chosen tool cannot do are checked by the tool registry (collect/tool_registry.cpp),
// which defines Options::validate() as both.

#include "kscope/options.hpp"

namespace kscope {

/// Throws kscope::InvalidArgument naming the first bad value (NotSupportedError for runs='auto'
/// with resume).
void check_option_values(const Options& options);

}  // namespace kscope
