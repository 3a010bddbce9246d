#include "nvml/pci_bus_id.hpp"

#include <cstdio>
#include <vector>

namespace kscope::nvml {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\0'; }

// Parses 1..max_digits hex digits; nullopt for anything else.
std::optional<unsigned long> parse_hex(std::string_view s, std::size_t max_digits) {
  if (s.empty() || s.size() > max_digits) return std::nullopt;
  unsigned long v = 0;
  for (char c : s) {
    int d = 0;
    if (c >= '0' && c <= '9') {
      d = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      d = c - 'a' + 10;
    } else if (c >= 'A' && c <= 'F') {
      d = c - 'A' + 10;
    } else {
      return std::nullopt;
    }
    v = v * 16 + static_cast<unsigned long>(d);
  }
  return v;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

}  // namespace

std::optional<std::string> normalize_pci_bus_id(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  const auto fields = split(text, ':');
  if (fields.size() != 2 && fields.size() != 3) return std::nullopt;
  const auto dev_fn = split(fields.back(), '.');
  if (dev_fn.size() != 2) return std::nullopt;
  const auto domain = fields.size() == 3 ? parse_hex(fields[0], 8) : std::optional<unsigned long>(0);
  const auto bus = parse_hex(fields[fields.size() - 2], 2);
  const auto device = parse_hex(dev_fn[0], 2);
  const auto function = parse_hex(dev_fn[1], 1);
  if (!domain || !bus || !device || !function || *device > 0x1F || *function > 7) {
    return std::nullopt;
  }
  char out[32];
  std::snprintf(out, sizeof out, "%08lX:%02lX:%02lX.%lX", *domain, *bus, *device, *function);
  return std::string(out);
}

bool same_pci_bus_id(std::string_view a, std::string_view b) {
  const auto na = normalize_pci_bus_id(a);
  return na && na == normalize_pci_bus_id(b);
}

}  // namespace kscope::nvml
