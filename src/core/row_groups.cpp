#include "core/row_groups.hpp"

namespace kscope {

RowGroups::RowGroups(const std::vector<RawRow>& raw) {
  // Each row's group, then the rows placed group after group (a counting sort, stable).
  std::vector<std::size_t> group_of(raw.size());
  std::size_t last = 0;  // the previous row's group: the runs of a group are mostly consecutive
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const RawRow& row = raw[i];
    if (i > 0 && groups_[last].config == row.config && raw[i - 1].annotation == row.annotation &&
        raw[i - 1].metric == row.metric) {
      group_of[i] = last;
      ++groups_[last].count;
      continue;
    }
    const auto [s, new_series] =
        series_index_.try_emplace({row.annotation, row.metric}, series_.size());
    if (new_series) series_.push_back({row.annotation, row.metric});
    const auto [g, new_group] = group_index_.try_emplace({s->second, row.config}, groups_.size());
    if (new_group) groups_.push_back({s->second, row.config, 0, 0});
    last = g->second;
    group_of[i] = last;
    ++groups_[last].count;
  }
  std::size_t next = 0;
  std::vector<std::size_t> fill(groups_.size());
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    groups_[g].first = fill[g] = next;
    next += groups_[g].count;
  }
  rows_.resize(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) rows_[fill[group_of[i]]++] = &raw[i];
}

const RowGroups::Group* RowGroups::find(std::string_view annotation, std::string_view metric,
                                        std::size_t config) const {
  const auto s = series_index_.find({annotation, metric});
  if (s == series_index_.end()) return nullptr;
  const auto g = group_index_.find({s->second, config});
  return g == group_index_.end() ? nullptr : &groups_[g->second];
}

}  // namespace kscope
