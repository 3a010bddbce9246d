#pragma once
// Kernel names: tools report mangled (CUPTI) or demangled-with-signature (ncu) names; users
// write base names ("vadd") in ignore lists. These helpers make the three comparable.

#include <string>
#include <string_view>

#include "core/demangler.hpp"  // demangle()

namespace kscope {

/// The function name without return type and parameter list:
/// "void ns::vadd<float>(float const*, int)" -> "ns::vadd<float>", "_Z4vaddPfi" -> "vadd".
[[nodiscard]] std::string kernel_base_name(std::string_view name);

/// The base name without namespaces or enclosing classes: "ns::scale<float, 4>" -> "scale<float, 4>".
[[nodiscard]] std::string kernel_short_name(std::string_view name);

/// Whether `pattern` names `kernel`: equal to its base name (qualified or not), its demangled
/// name or its raw form.
[[nodiscard]] bool kernel_name_matches(std::string_view kernel, std::string_view pattern);

}  // namespace kscope
