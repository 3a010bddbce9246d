#include "core/info_columns.hpp"

#include <map>
#include <utility>

#include "core/row_groups.hpp"
#include "core/statistics.hpp"

namespace kscope {
namespace {

// The value of collector `i` for a row of `annotation` in the run `log` describes.
InfoValue value_for(const RunLog& log, std::size_t i, CollectionScope scope,
                    const std::string& annotation) {
  if (scope != CollectionScope::kAnnotation) return i < log.info.size() ? log.info[i] : InfoValue();
  // Names are unique within a run; the last entry wins should one have been entered twice.
  for (auto it = log.annotation_info.rbegin(); it != log.annotation_info.rend(); ++it) {
    if (it->annotation == annotation) return i < it->values.size() ? it->values[i] : InfoValue();
  }
  return {};
}

bool aggregated(CollectionScope scope, std::size_t i, const std::vector<RawRow>& raw) {
  if (scope == CollectionScope::kOnce) return false;
  bool number = false;
  for (const auto& row : raw) {
    if (row.info[i].is_string()) return false;
    number = number || row.info[i].is_number();
  }
  return number;
}

void summarize_group(PointerRange<RawRow> rows, const std::vector<InfoColumn>& columns,
                     std::vector<InfoValue>* out) {
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (!columns[i].aggregated) {
      InfoValue first;  // pandas' "first": the first value that is there
      for (const auto* r : rows) {
        if (!r->info[i].empty()) {
          first = r->info[i];
          break;
        }
      }
      out->push_back(std::move(first));
      continue;
    }
    std::vector<double> values;
    for (const auto* r : rows) values.push_back(r->info[i].number());
    const auto s = stats::summarize(values);
    out->insert(out->end(), {s.mean, s.stddev, s.min, s.max});
  }
}

}  // namespace

std::vector<InfoColumn> add_info_columns(const std::vector<InfoCollector>& collectors,
                                         const std::vector<RunLog>& runs,
                                         std::vector<RawRow>& raw,
                                         std::vector<ProcessedRow>& processed) {
  if (collectors.empty()) return {};
  std::map<std::pair<std::size_t, std::size_t>, const RunLog*> by_run;
  for (const auto& log : runs) {
    if (!log.run.warmup) by_run[{log.run.config, log.run.run}] = &log;
  }
  for (auto& row : raw) {
    row.info.assign(collectors.size(), InfoValue());
    const auto it = by_run.find({row.config, row.run});
    if (it == by_run.end()) continue;
    for (std::size_t i = 0; i < collectors.size(); ++i) {
      row.info[i] = value_for(*it->second, i, collectors[i].scope, row.annotation);
    }
  }

  std::vector<InfoColumn> columns;
  for (std::size_t i = 0; i < collectors.size(); ++i) {
    columns.push_back({collectors[i].name, collectors[i].scope,
                       aggregated(collectors[i].scope, i, raw)});
  }

  const RowGroups groups(raw);
  for (auto& p : processed) {
    p.info.clear();
    const RowGroups::Group* g = groups.find(p.annotation, p.metric, p.config);
    summarize_group(g ? groups.rows(*g) : PointerRange<RawRow>(), columns, &p.info);
  }
  return columns;
}

}  // namespace kscope
