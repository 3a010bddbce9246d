#pragma once
// Sorting what is most often sorted already (runs, records, launches come in order): a check
// first, so that the common case moves nothing.

#include <algorithm>
#include <vector>

namespace kscope {

/// `items` in the order `before` gives, stably; nothing moves when they are in it already.
template <class T, class Less>
void stable_sort_if_needed(std::vector<T>& items, Less before) {
  if (!std::is_sorted(items.begin(), items.end(), before)) {
    std::stable_sort(items.begin(), items.end(), before);
  }
}

}  // namespace kscope
