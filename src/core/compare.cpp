// kscope::compare: the join of two results and the checks of their environments; the verdict
// of each row is core/sample_comparison.cpp's.
#include <locale>
#include <map>
#include <sstream>
#include <string>
#include <set>
#include <tuple>

#include "core/number_format.hpp"
#include "core/sample_comparison.hpp"
#include "core/student_t.hpp"
#include "kscope/compare.hpp"
#include "kscope/errors.hpp"

namespace kscope {
namespace {

using Key = std::tuple<std::string, std::string, std::string>;  // annotation, metric, config

struct Side {
  std::vector<Key> order;
  std::map<Key, std::vector<double>> values;
  std::map<Key, std::optional<std::string>> units;
};

Side collect(const Results& r) {
  Side side;
  for (const auto& row : r.raw()) {
    const std::string label = row.config < r.configs().size() ? r.configs()[row.config].label()
                                                              : std::to_string(row.config);
    Key key{row.annotation, row.metric, label};
    auto [it, inserted] = side.values.try_emplace(key);
    if (inserted) {
      side.order.push_back(key);
      side.units[key] = row.unit;
    }
    it->second.push_back(row.value);
  }
  return side;
}

void differ(std::vector<std::string>& warnings, const char* what, const std::string& base,
            const std::string& next) {
  if (base != next) {
    warnings.push_back("BASE and NEW were measured with different " + std::string(what) +
                       ": BASE '" + base + "', NEW '" + next + "'");
  }
}

std::vector<std::string> environment_warnings(const Results& base, const Results& next) {
  std::vector<std::string> w;
  const Metadata& a = base.metadata();
  const Metadata& b = next.metadata();
  differ(w, "GPUs", a.gpu, b.gpu);
  differ(w, "peak SM clocks (kHz)", std::to_string(a.compute_clock),
         std::to_string(b.compute_clock));
  differ(w, "peak memory clocks (kHz)", std::to_string(a.memory_clock),
         std::to_string(b.memory_clock));
  differ(w, "drivers", std::to_string(a.driver_version), std::to_string(b.driver_version));
  differ(w, "kscope versions", a.kscope_version, b.kscope_version);
  differ(w, "tools", a.tool.empty() ? base.options().tool : a.tool,
         b.tool.empty() ? next.options().tool : b.tool);
  differ(w, "cache_control", base.options().cache_control, next.options().cache_control);
  differ(w, "clock_control", base.options().clock_control, next.options().clock_control);
  return w;
}

}  // namespace

const char* to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::kFaster: return "FASTER";
    case Verdict::kSlower: return "SLOWER";
    case Verdict::kSame: return "SAME";
    case Verdict::kUnsure: return "UNSURE";
    case Verdict::kBaseOnly: return "BASE_ONLY";
    case Verdict::kNewOnly: return "NEW_ONLY";
  }
  return "UNSURE";
}

void CompareOptions::validate() const {
  if (!(alpha > 0 && alpha < 1)) {
    throw InvalidArgument("Invalid alpha " + format_general(alpha, 6) +
                          ". Expected a significance level between 0 and 1, e.g. 0.05.");
  }
  if (threshold && !(*threshold >= 0)) {
    throw InvalidArgument("Invalid threshold " + format_general(*threshold, 6) +
                          ". Expected a fraction >= 0, e.g. 0.05 for 5 %.");
  }
  for (const auto& m : higher_is_better) {
    for (const auto& l : lower_is_better) {
      if (m == l) {
        throw InvalidArgument("Metric '" + m +
                              "' is declared both higher-is-better and lower-is-better; "
                              "declare it once.");
      }
    }
  }
}

double student_t_quantile(double p, double df) { return stats::student_t_quantile(p, df); }

double parse_threshold(const std::string& text) {
  std::string number = text;
  const bool percent = !number.empty() && number.back() == '%';
  if (percent) number.pop_back();
  // Read in the "C" locale, whatever the process's (a comma-decimal host keeps "0.05").
  std::istringstream in(number);
  in.imbue(std::locale::classic());
  double value = -1;
  in >> value;
  const bool whole = !in.fail() && in.peek() == std::char_traits<char>::eof();
  if (number.empty() || !whole || !(value >= 0)) {
    throw InvalidArgument("Invalid threshold '" + text +
                          "'. Expected a percentage such as 5% or a fraction such as 0.05.");
  }
  return percent ? value / 100 : value;
}

bool Comparison::regressed() const {
  for (const auto& r : rows) {
    if (r.beyond_threshold) return true;
  }
  return false;
}

Comparison compare(const Results& base, const Results& next, const CompareOptions& options) {
  options.validate();
  Comparison out;
  out.threshold = options.threshold;
  out.base_name = base.name();
  out.new_name = next.name();
  out.warnings = environment_warnings(base, next);
  const Side a = collect(base);
  const Side b = collect(next);
  std::set<std::string> assumed;
  auto make_row = [&](const Key& key, const std::optional<std::string>& unit) {
    ComparisonRow row;
    std::tie(row.annotation, row.metric, row.config) = key;
    row.unit = unit;
    const auto direction = metric_direction(row.metric, unit, options);
    row.direction = direction.value_or(Direction::kLowerIsBetter);
    row.direction_declared = direction.has_value();
    if (!direction && assumed.insert(row.metric).second) {
      out.warnings.push_back("metric '" + row.metric + "'" +
                             (unit ? " (unit '" + *unit + "')" : std::string()) +
                             " has no known direction: lower is taken as better; declare it "
                             "with higher_is_better or lower_is_better (CLI: "
                             "--higher-is-better, --lower-is-better)");
    }
    return row;
  };
  for (const auto& key : a.order) {
    ComparisonRow row = make_row(key, a.units.at(key));
    const auto other = b.values.find(key);
    if (other == b.values.end()) {
      stats::compare_samples(a.values.at(key), {}, options.alpha, options.threshold, row);
      row.verdict = Verdict::kBaseOnly;
    } else {
      stats::compare_samples(a.values.at(key), other->second, options.alpha, options.threshold,
                             row);
    }
    out.rows.push_back(std::move(row));
  }
  for (const auto& key : b.order) {
    if (a.values.count(key)) continue;
    ComparisonRow row = make_row(key, b.units.at(key));
    stats::compare_samples({}, b.values.at(key), options.alpha, options.threshold, row);
    row.verdict = Verdict::kNewOnly;
    out.rows.push_back(std::move(row));
  }
  return out;
}

}  // namespace kscope
