#include "report/compare_cells.hpp"

#include <cmath>
#include <map>
#include <tuple>

#include "core/number_format.hpp"

namespace kscope::report {
namespace {

using Key = std::tuple<std::string, std::string, std::string>;  // annotation, metric, config

Key key_of(const Results& r, const ProcessedRow& p) {
  return {p.annotation, p.metric, r.configs().at(p.config).label()};
}

std::string num(double x) { return std::isnan(x) ? "-" : format_significant(x, 6); }

}  // namespace

Cells compare_cells(const Results& result, const Results& baseline) {
  Cells t;
  t.header = {"Annotation", "Config", "Metric", "Unit", "Baseline", "Result", "Ratio", "Change"};
  t.first_number = 4;
  t.numbers = 4;
  std::map<Key, const ProcessedRow*> base;
  for (const auto& p : baseline.processed()) base.emplace(key_of(baseline, p), &p);
  std::map<Key, bool> seen;
  auto row = [&](const Key& k, const std::optional<std::string>& unit, double b, double r) {
    const double ratio = r / b;
    const bool finite = std::isfinite(ratio);
    t.rows.push_back({std::get<0>(k), std::get<2>(k), std::get<1>(k), unit.value_or(""), num(b),
                      num(r), finite ? format_significant(ratio, 4) : "-",
                      finite ? (ratio >= 1 ? "+" : "") + format_significant(100 * (ratio - 1), 3) + "%"
                             : "-"});
  };
  constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  for (const auto& p : result.processed()) {
    const Key k = key_of(result, p);
    seen[k] = true;
    const auto it = base.find(k);
    row(k, p.unit, it == base.end() ? kNone : it->second->avg, p.avg);
  }
  for (const auto& p : baseline.processed()) {
    const Key k = key_of(baseline, p);
    if (!seen.count(k)) row(k, p.unit, p.avg, kNone);
  }
  return t;
}

}  // namespace kscope::report
