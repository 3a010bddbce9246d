#include "collect/cupti/ncu_units.hpp"

#include <array>
#include <utility>

namespace kscope::cupti {
namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string factor_unit(std::string_view f) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 4> kExact = {{
      {"nanosecond", "ns"},
      {"percent", "%"},
      {"instruction", "inst"},
      {"lrc_req", "request"},
  }};
  for (const auto& [cupti, ncu] : kExact) {
    if (f == cupti) return std::string(ncu);
  }
  // Clock domains (gpc_cycle, sys_cycle, dram_cycle, ...), sectors and requests of the various
  // units are all plain cycles, sectors and requests to ncu.
  if (ends_with(f, "_cycle")) return "cycle";
  if (ends_with(f, "_sector")) return "sector";
  if (ends_with(f, "_request")) return "request";
  return std::string(f);
}

}  // namespace

std::string ncu_unit(std::string_view cupti_dim_unit) {
  std::string out;
  std::size_t start = 0;
  while (true) {
    const std::size_t slash = cupti_dim_unit.find('/', start);
    const std::string_view f = cupti_dim_unit.substr(
        start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    out += factor_unit(f);
    if (slash == std::string_view::npos) break;
    out += '/';
    start = slash + 1;
  }
  return out;
}

}  // namespace kscope::cupti
