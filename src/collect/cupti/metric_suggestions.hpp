#pragma once
// "Did you mean ...": the valid names closest to a mistyped one. Pure string functions, so the
// ranking is unit-tested without CUPTI.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kscope::cupti {

/// Edit distance with adjacent transpositions (optimal string alignment): insertions,
/// deletions, substitutions and swaps of two neighbouring characters cost 1 each.
[[nodiscard]] std::size_t edit_distance(std::string_view a, std::string_view b);

/// Up to `max_results` candidates closest to `query`, best first (ties by name). Candidates
/// farther than about a third of the query's length are not offered; when none is that close,
/// candidates containing `query` (or contained in it) are offered instead.
[[nodiscard]] std::vector<std::string> closest_names(std::string_view query,
                                                     const std::vector<std::string>& candidates,
                                                     std::size_t max_results);

}  // namespace kscope::cupti
