#include "core/row_groups.hpp"

namespace kscope {

RowGroups::RowGroups(const std::vector<RawRow>& raw) {
  // Each row's group, then the rows placed group after group (a counting sort, stable).
  // Consecutive rows are mostly of one series (one metric) or of the series' latest config
  // (several metrics, run after run): both are tried before the maps.
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::vector<std::size_t> group_of(raw.size());
  std::vector<std::size_t> latest;  // per series: its group seen last
  std::size_t series = 0;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const RawRow& row = raw[i];
    if (i == 0 || raw[i - 1].annotation != row.annotation || raw[i - 1].metric != row.metric) {
      const auto [s, inserted] =
          series_index_.try_emplace({row.annotation, row.metric}, series_.size());
      if (inserted) {
        series_.push_back({row.annotation, row.metric});
        latest.push_back(kNone);
      }
      series = s->second;
    }
    std::size_t& g = latest[series];
    if (g == kNone || groups_[g].config != row.config) {
      const auto [it, inserted] = group_index_.try_emplace({series, row.config}, groups_.size());
      if (inserted) groups_.push_back({series, row.config, 0, 0});
      g = it->second;
    }
    group_of[i] = g;
    ++groups_[g].count;
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
