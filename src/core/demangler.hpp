#pragma once
// Demangling names that come from files and tools (ncu CSVs, sanitizer frames, ignore lists)
// with a bound: abi::__cxa_demangle's output can grow exponentially with the input (a 321-byte
// template name cost 19 s and 2 GB), so a name that could expand runs in a child process under
// a deadline and an output cap; past either it stays mangled.

#include <cstddef>
#include <string>
#include <string_view>

namespace kscope {

/// Limits of demangle(). A name beyond them is returned unchanged.
struct DemangleLimits {
  std::size_t max_mangled = 16 * 1024;        ///< longer names are not demangled
  std::size_t max_direct_references = 10;     ///< up to this many back-references: in-process
  std::size_t max_demangled = 1024 * 1024;    ///< output cap of the child
  int deadline_ms = 1000;                     ///< time the child may take
};

/// Demangles an Itanium C++ name within `limits`; returns the input unchanged when it is not
/// mangled, not valid, or would exceed the limits. Results are cached per name (thread-safe).
[[nodiscard]] std::string demangle(std::string_view mangled, const DemangleLimits& limits = {});

/// How many substitution or template-parameter references ("S_", "S0_", "T_", "T1_") `mangled`
/// holds: each can double the demangled length, so few references bound it.
[[nodiscard]] std::size_t mangled_back_references(std::string_view mangled);

}  // namespace kscope
