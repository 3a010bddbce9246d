// kscope::metric_direction: which way a metric improves (docs/compare.md, "Directions").
#include <algorithm>
#include <array>
#include <string_view>

#include "kscope/compare.hpp"

namespace kscope {
namespace {

bool contains(const std::vector<std::string>& list, const std::string& name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Units of amounts where less is better: Nsight Compute's time, size and cycle units.
constexpr std::array<std::string_view, 16> kLowerUnits = {
    "ns", "nsecond", "us", "usecond", "ms", "msecond", "s", "second",
    "cycle", "byte", "Kbyte", "Mbyte", "Gbyte", "KB", "MB", "GB"};

}  // namespace

const char* to_string(Direction direction) {
  return direction == Direction::kLowerIsBetter ? "lower" : "higher";
}

std::optional<Direction> metric_direction(const std::string& metric,
                                          const std::optional<std::string>& unit,
                                          const CompareOptions& options) {
  if (contains(options.higher_is_better, metric)) return Direction::kHigherIsBetter;
  if (contains(options.lower_is_better, metric)) return Direction::kLowerIsBetter;
  if (metric.find("pct_of_peak") != std::string::npos) return Direction::kHigherIsBetter;
  if (metric.find("per_second") != std::string::npos) return Direction::kHigherIsBetter;
  const std::string_view u = unit ? std::string_view(*unit) : std::string_view();
  if (ends_with(u, "/second") || ends_with(u, "/s")) return Direction::kHigherIsBetter;
  if (metric.rfind("gpu__time_duration", 0) == 0) return Direction::kLowerIsBetter;
  if (std::find(kLowerUnits.begin(), kLowerUnits.end(), u) != kLowerUnits.end()) {
    return Direction::kLowerIsBetter;
  }
  return std::nullopt;
}

}  // namespace kscope
