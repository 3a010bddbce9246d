#include "collect/cupti/metric_suggestions.hpp"

#include <algorithm>
#include <utility>

namespace kscope::cupti {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  const std::size_t n = a.size(), m = b.size();
  // Three rolling rows: the transposition needs the row before the previous one.
  std::vector<std::size_t> older(m + 1), prev(m + 1), cur(m + 1);
  for (std::size_t j = 0; j <= m; ++j) prev[j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        cur[j] = std::min(cur[j], older[j - 2] + 1);
      }
    }
    std::swap(older, prev);
    std::swap(prev, cur);
  }
  return prev[m];
}

std::vector<std::string> closest_names(std::string_view query,
                                       const std::vector<std::string>& candidates,
                                       std::size_t max_results) {
  const std::size_t limit = std::max<std::size_t>(2, query.size() / 3);
  std::vector<std::pair<std::size_t, const std::string*>> ranked;
  for (const auto& c : candidates) {
    // Cheap bound first: the distance is at least the length difference.
    const std::size_t diff = c.size() > query.size() ? c.size() - query.size() : query.size() - c.size();
    if (diff > limit) continue;
    const std::size_t d = edit_distance(query, c);
    if (d <= limit) ranked.emplace_back(d, &c);
  }
  if (ranked.empty() && !query.empty()) {
    for (const auto& c : candidates) {
      if (c.find(query) != std::string::npos || query.find(c) != std::string_view::npos) {
        ranked.emplace_back(c.size() > query.size() ? c.size() - query.size() : query.size() - c.size(), &c);
      }
    }
  }
  std::sort(ranked.begin(), ranked.end(), [](const auto& x, const auto& y) {
    return x.first != y.first ? x.first < y.first : *x.second < *y.second;
  });
  std::vector<std::string> out;
  for (const auto& [d, name] : ranked) {
    if (out.size() >= max_results) break;
    if (std::find(out.begin(), out.end(), *name) == out.end()) out.push_back(*name);
  }
  return out;
}

}  // namespace kscope::cupti
