#pragma once
// The rows of a raw table by (annotation, metric, config): one processed row per group. The
// statistics (core/transformation.hpp) and the info collectors' columns (core/info_columns.hpp)
// group the same way.

#include <cstddef>
#include <map>
#include <string_view>
#include <utility>
#include <vector>

#include "core/pointer_range.hpp"
#include "kscope/results.hpp"

namespace kscope {

class RowGroups {
 public:
  struct Group {
    std::size_t series = 0;  ///< its (annotation, metric), an index into series()
    std::size_t config = 0;
    std::size_t first = 0;   ///< its rows: rows_[first, first + count)
    std::size_t count = 0;
  };
  struct Series {
    std::string_view annotation;
    std::string_view metric;
  };

  /// Groups in order of first appearance in `raw`, which must outlive this object.
  explicit RowGroups(const std::vector<RawRow>& raw);

  [[nodiscard]] const std::vector<Group>& groups() const { return groups_; }
  /// The (annotation, metric) pairs of the groups, in order of first appearance.
  [[nodiscard]] const std::vector<Series>& series() const { return series_; }
  /// The rows of `g`, in table order.
  [[nodiscard]] PointerRange<RawRow> rows(const Group& g) const {
    return {rows_.data() + g.first, g.count};
  }
  /// The group of (annotation, metric, config); nullptr when `raw` has no such row.
  [[nodiscard]] const Group* find(std::string_view annotation, std::string_view metric,
                                  std::size_t config) const;

 private:
  std::vector<Group> groups_;
  std::vector<Series> series_;
  std::vector<const RawRow*> rows_;  ///< grouped: each group's rows consecutive
  std::map<std::pair<std::string_view, std::string_view>, std::size_t> series_index_;
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> group_index_;  ///< (series, config)
};

}  // namespace kscope
