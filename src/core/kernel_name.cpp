#include "core/kernel_name.hpp"

namespace kscope {

std::string kernel_base_name(std::string_view name) {
  std::string s = demangle(name);
  // Cut the parameter list: the last top-level "(...)" group that ends the name.
  if (!s.empty() && s.back() == ')') {
    int depth = 0;
    for (std::size_t i = s.size(); i-- > 0;) {
      if (s[i] == ')') ++depth;
      if (s[i] == '(' && --depth == 0) {
        s.erase(i);
        break;
      }
    }
  }
  // Cut a return type: the last space outside template brackets and parentheses (which keeps
  // "(anonymous namespace)::k" whole).
  int angle = 0, paren = 0;
  std::size_t cut = std::string::npos;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<') ++angle;
    if (s[i] == '>') --angle;
    if (s[i] == '(') ++paren;
    if (s[i] == ')') --paren;
    if (s[i] == ' ' && angle == 0 && paren == 0) cut = i;
  }
  if (cut != std::string::npos) s.erase(0, cut + 1);
  return s;
}

std::string kernel_short_name(std::string_view name) {
  const std::string base = kernel_base_name(name);
  int angle = 0, paren = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i + 1 < base.size(); ++i) {
    if (base[i] == '<') ++angle;
    if (base[i] == '>') --angle;
    if (base[i] == '(') ++paren;
    if (base[i] == ')') --paren;
    if (base[i] == ':' && base[i + 1] == ':' && angle == 0 && paren == 0) start = i + 2;
  }
  return base.substr(start);
}

bool kernel_name_matches(std::string_view kernel, std::string_view pattern) {
  if (kernel == pattern) return true;
  return kernel_base_name(kernel) == pattern || kernel_short_name(kernel) == pattern ||
         demangle(kernel) == pattern;
}

}  // namespace kscope
