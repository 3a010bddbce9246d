// kscope::compare: the join of two results (or two sets of them, by session name), its filters,
// the checks of the options and of the environments; the statistics and verdicts of the rows
// are core/sample_comparison.cpp's.
#include <algorithm>
#include <cmath>
#include <locale>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "core/number_format.hpp"
#include "core/sample_comparison.hpp"
#include "core/student_t.hpp"
#include "kscope/compare.hpp"
#include "kscope/errors.hpp"

namespace kscope {
namespace {

using Key = std::tuple<std::string, std::string, std::string>;  // annotation, metric, config

struct KeyHash {
  std::size_t operator()(const Key& k) const {
    const std::hash<std::string> h;
    std::size_t seed = h(std::get<0>(k));
    for (const std::string* s : {&std::get<1>(k), &std::get<2>(k)}) {
      seed ^= h(*s) + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
    }
    return seed;
  }
};
const std::string kExpected = " Expected a percentage such as 5% or a fraction such as 0.05.";

std::string percent(double fraction) { return format_general(100 * fraction, 6) + "%"; }

// The one check of a noise or a threshold; `written`: as the user wrote it, `in_percent`: with
// a '%'.
void check_fraction(const char* what, double value, const std::string& written,
                    bool in_percent) {
  const std::string head = std::string("Invalid ") + what + " '" + written + "'";
  if (std::isnan(value)) throw InvalidArgument(head + "." + kExpected);
  if (value < 0) throw InvalidArgument(head + ": negative." + kExpected);
  if (value >= 1) {
    if (in_percent) throw InvalidArgument(head + ": it must be below 100%.");
    throw InvalidArgument(head + ": a bare number is a fraction of BASE, so " + written +
                          " is " + percent(value) + "; did you mean " + written + "%?");
  }
}

double parse_fraction(const char* what, const std::string& text) {
  if (text.empty()) throw InvalidArgument(std::string("Invalid ") + what + " '': empty." + kExpected);
  std::string number = text;
  const bool in_percent = number.back() == '%';
  if (in_percent) number.pop_back();
  // Read in the "C" locale, whatever the process's (a comma-decimal host keeps "0.05").
  std::istringstream in(number);
  in.imbue(std::locale::classic());
  double value = std::nan("");
  in >> value;
  const bool whole = !number.empty() && !in.fail() && in.peek() == std::char_traits<char>::eof();
  if (!whole) value = std::nan("");
  if (in_percent) value /= 100;
  check_fraction(what, value, text, in_percent);
  return value;
}

// fnmatch's '*' (any run of characters); every other character matches itself.
bool matches(std::string_view pattern, std::string_view text) {
  std::size_t p = 0, t = 0, star = std::string_view::npos, resume = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (p < pattern.size() && pattern[p] == text[t]) {
      ++p;
      ++t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

bool any_matches(const std::vector<std::string>& patterns, const std::string& text) {
  return std::any_of(patterns.begin(), patterns.end(),
                     [&](const std::string& p) { return matches(p, text); });
}

std::string joined(const std::set<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

// CompareOptions::configs as parameter -> the values given for it.
std::map<std::string, std::vector<std::string>> config_filter(const CompareOptions& o) {
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& c : o.configs) {
    const auto eq = c.find('=');
    out[c.substr(0, eq)].push_back(c.substr(eq + 1));
  }
  return out;
}

// A config's value of `parameter` as its label writes it; nullopt: the config has none.
std::optional<std::string> value_of(const Config& config, const std::string& parameter) {
  for (std::size_t i = 0; i < config.names().size() && i < config.values().size(); ++i) {
    if (config.names()[i] == parameter) return config.values()[i].to_string();
  }
  return std::nullopt;
}

// What the results compared hold, for the checks of the declarations and the filters.
struct Inventory {
  std::set<std::string> annotations;
  std::set<std::string> metrics;
  std::map<std::string, std::set<std::string>> parameter_values;

  // What `o`'s declarations and filters are checked against; nothing when it has none (a
  // million configs' values are not gathered for nothing).
  void add(const Results& r, const CompareOptions& o) {
    const bool names = !o.higher_is_better.empty() || !o.lower_is_better.empty() ||
                       !o.annotations.empty() || !o.metrics.empty();
    if (names) {
      for (const auto& row : r.raw()) {
        annotations.insert(row.annotation);
        metrics.insert(row.metric);
      }
    }
    if (o.configs.empty()) return;
    for (const auto& c : r.configs()) {
      for (std::size_t i = 0; i < c.names().size() && i < c.values().size(); ++i) {
        parameter_values[c.names()[i]].insert(c.values()[i].to_string());
      }
    }
  }

  // Every declared metric and every filter must name something BASE or NEW has.
  void check(const CompareOptions& o) const {
    for (const auto* list : {&o.higher_is_better, &o.lower_is_better}) {
      for (const auto& m : *list) {
        if (metrics.count(m) == 0) {
          throw InvalidArgument("Metric '" + m + "' declared " +
                                (list == &o.higher_is_better ? "higher" : "lower") +
                                "-is-better is not a metric of BASE or NEW (their metrics: " +
                                joined(metrics) + ").");
        }
      }
    }
    const auto check_patterns = [](const std::vector<std::string>& patterns,
                                   const std::set<std::string>& names, const char* what) {
      for (const auto& p : patterns) {
        if (std::none_of(names.begin(), names.end(),
                         [&](const std::string& n) { return matches(p, n); })) {
          throw InvalidArgument(std::string(what) + " filter '" + p + "' matches no " + what +
                                " of BASE or NEW (their " + what + "s: " + joined(names) + ").");
        }
      }
    };
    check_patterns(o.annotations, annotations, "annotation");
    check_patterns(o.metrics, metrics, "metric");
    std::set<std::string> parameters;
    for (const auto& [name, values] : parameter_values) parameters.insert(name);
    for (const auto& c : o.configs) {
      const std::string name = c.substr(0, c.find('='));
      const auto it = parameter_values.find(name);
      if (it == parameter_values.end()) {
        throw InvalidArgument("config filter '" + c + "': BASE and NEW have no parameter '" +
                              name + "' (their parameters: " + joined(parameters) + ").");
      }
      const std::string value = c.substr(c.find('=') + 1);
      if (std::none_of(it->second.begin(), it->second.end(),
                       [&](const std::string& v) { return matches(value, v); })) {
        throw InvalidArgument("config filter '" + c + "' matches no config of BASE or NEW " +
                              "(their values of '" + name + "': " + joined(it->second) + ").");
      }
    }
  }
};

// One side's rows: their keys in the order first seen, each with its values and unit.
struct Side {
  struct Row {
    Key key;
    std::optional<std::string> unit;
    std::vector<double> values;
  };
  std::vector<Row> rows;
  std::unordered_map<Key, std::size_t, KeyHash> index;  // into rows
  [[nodiscard]] const Row* find(const Key& key) const {
    const auto it = index.find(key);
    return it == index.end() ? nullptr : &rows[it->second];
  }
};

// The raw runs of `r` that pass the filters, by row.
Side collect(const Results& r, const CompareOptions& o) {
  const auto wanted_configs = config_filter(o);
  std::vector<bool> config_wanted(r.configs().size(), true);
  for (std::size_t i = 0; i < r.configs().size(); ++i) {
    for (const auto& [parameter, values] : wanted_configs) {
      const auto v = value_of(r.configs()[i], parameter);
      if (!v || !any_matches(values, *v)) config_wanted[i] = false;
    }
  }
  std::vector<std::string> labels(r.configs().size());
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (config_wanted[i]) labels[i] = r.configs()[i].label();
  }
  Side side;
  for (const auto& row : r.raw()) {
    if (!o.annotations.empty() && !any_matches(o.annotations, row.annotation)) continue;
    if (!o.metrics.empty() && !any_matches(o.metrics, row.metric)) continue;
    const bool known = row.config < r.configs().size();
    if (known && !config_wanted[row.config]) continue;
    if (!known && !wanted_configs.empty()) continue;
    Key key{row.annotation, row.metric, known ? labels[row.config] : std::to_string(row.config)};
    const auto [it, inserted] = side.index.try_emplace(std::move(key), side.rows.size());
    if (inserted) side.rows.push_back({it->first, row.unit, {}});
    side.rows[it->second].values.push_back(row.value);
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
  if (!a.duration_definition.empty() && !b.duration_definition.empty()) {
    differ(w, "duration definitions (docs/tools/cupti.md#durations)", a.duration_definition,
           b.duration_definition);
  }
  differ(w, "cache_control", base.options().cache_control, next.options().cache_control);
  differ(w, "clock_control", base.options().clock_control, next.options().clock_control);
  return w;
}

std::string unfinished_warning(const char* side, const char* other_only, const Results& r) {
  return std::string(side) + " is the result of an unfinished session" +
         (r.journal_path().empty() ? " ('" + r.name() + "')" : " (journal '" + r.journal_path() + "')") +
         ": the rows it had not measured yet are " + other_only;
}

void add_unique(std::vector<std::string>& warnings, const std::string& w) {
  if (std::find(warnings.begin(), warnings.end(), w) == warnings.end()) warnings.push_back(w);
}

// Builds and decides the rows of several (BASE, NEW) pairs as one family.
class Builder {
 public:
  explicit Builder(const CompareOptions& options) : options_(options) {}

  // The rows of one pair; `session`: the rows' Session ("" for two results); a side may be
  // missing (a session only the other side has).
  void add(const std::string& session, const Results* base, const Results* next) {
    if (base && next) {
      for (const auto& w : environment_warnings(*base, *next)) add_unique(out_.warnings, w);
    }
    if (base && !base->complete()) add_unique(out_.warnings, unfinished_warning("BASE", "NEW_ONLY", *base));
    if (next && !next->complete()) add_unique(out_.warnings, unfinished_warning("NEW", "BASE_ONLY", *next));
    const Side a = base ? collect(*base, options_) : Side{};
    const Side b = next ? collect(*next, options_) : Side{};
    for (const auto& r : a.rows) {
      ComparisonRow row = make_row(session, r.key, r.unit);
      const Side::Row* other = b.find(r.key);
      stats::row_statistics(r.values, other ? other->values : std::vector<double>{}, row);
      if (!other) row.verdict = Verdict::kBaseOnly;
      out_.rows.push_back(std::move(row));
    }
    for (const auto& r : b.rows) {
      if (a.find(r.key)) continue;
      ComparisonRow row = make_row(session, r.key, r.unit);
      stats::row_statistics({}, r.values, row);
      row.verdict = Verdict::kNewOnly;
      out_.rows.push_back(std::move(row));
    }
  }

  Comparison finish() {
    stats::decide(out_.rows, options_);
    warn_about_non_positive_means();
    out_.threshold = options_.threshold;
    out_.noise = options_.noise;
    out_.alpha = options_.alpha;
    return std::move(out_);
  }

 private:
  ComparisonRow make_row(const std::string& session, const Key& key,
                         const std::optional<std::string>& unit) {
    ComparisonRow row;
    row.session = session;
    std::tie(row.annotation, row.metric, row.config) = key;
    row.unit = unit;
    const auto direction = metric_direction(row.metric, unit, options_);
    row.direction = direction.value_or(Direction::kLowerIsBetter);
    row.direction_declared = direction.has_value();
    if (!direction && assumed_.insert(row.metric).second) {
      out_.warnings.push_back("metric '" + row.metric + "'" +
                              (unit ? " (unit '" + *unit + "')" : std::string()) +
                              " has no known direction: lower is taken as better; declare it "
                              "with higher_is_better or lower_is_better (CLI: "
                              "--higher-is-better, --lower-is-better)");
    }
    return row;
  }

  // A row compared on both sides whose mean is not positive on one has no ratio: one warning
  // per metric, naming its first such row.
  void warn_about_non_positive_means() {
    std::map<std::string, std::size_t> count;
    std::vector<const ComparisonRow*> first;
    for (const auto& r : out_.rows) {
      if (r.base_runs == 0 || r.new_runs == 0 || r.base_value == r.new_value) continue;
      if (r.base_value > 0 && r.new_value > 0) continue;
      if (count[r.metric]++ == 0) first.push_back(&r);
    }
    for (const ComparisonRow* r : first) {
      const bool base_bad = !(r->base_value > 0);
      std::string w = "no ratio for " +
                      (r->session.empty() ? std::string() : "session '" + r->session + "', ") +
                      "annotation '" + r->annotation + "', config '" + r->config + "', metric '" +
                      r->metric + "': " + (base_bad ? "BASE" : "NEW") + "'s mean is " +
                      format_general(base_bad ? r->base_value : r->new_value, 6) +
                      " (a ratio needs positive means), so the row is UNSURE";
      const std::size_t more = count[r->metric] - 1;
      if (more > 0) {
        w += " (and " + std::to_string(more) + " more row" + (more == 1 ? "" : "s") + " of '" +
             r->metric + "')";
      }
      out_.warnings.push_back(std::move(w));
    }
  }

  const CompareOptions& options_;
  Comparison out_;
  std::set<std::string> assumed_;
};

std::map<std::string, const Results*> by_session(const std::vector<Results>& side,
                                                 const char* name) {
  std::map<std::string, const Results*> out;
  for (const auto& r : side) {
    if (!out.emplace(r.name(), &r).second) {
      throw InvalidArgument(std::string(name) + " has two results of session '" + r.name() +
                            "'; compare them one pair at a time");
    }
  }
  return out;
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
  check_fraction("noise", noise, format_general(noise, 6), false);
  if (threshold) {
    check_fraction("threshold", *threshold, format_general(*threshold, 6), false);
    if (*threshold < noise) {
      throw InvalidArgument("Invalid threshold " + percent(*threshold) +
                            ": below the noise threshold of " + percent(noise) +
                            ", within which a change is SAME and never fails; lower the noise "
                            "threshold too (CLI --noise, Python noise=).");
    }
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
  for (const auto& c : configs) {
    if (c.find('=') == std::string::npos || c.front() == '=') {
      throw InvalidArgument("Invalid config filter '" + c +
                            "'. Expected a parameter and a value, such as n=1024.");
    }
  }
}

double student_t_quantile(double p, double df) { return stats::student_t_quantile(p, df); }

double parse_threshold(const std::string& text) { return parse_fraction("threshold", text); }

double parse_noise(const std::string& text) { return parse_fraction("noise", text); }

bool Comparison::regressed() const {
  for (const auto& r : rows) {
    if (r.beyond_threshold) return true;
  }
  return false;
}

Comparison compare(const Results& base, const Results& next, const CompareOptions& options) {
  options.validate();
  Inventory inventory;
  inventory.add(base, options);
  inventory.add(next, options);
  inventory.check(options);
  Builder builder(options);
  builder.add("", &base, &next);
  Comparison out = builder.finish();
  out.base_name = base.name();
  out.new_name = next.name();
  return out;
}

Comparison compare(const std::vector<Results>& base, const std::vector<Results>& next,
                   const CompareOptions& options) {
  options.validate();
  const auto a = by_session(base, "BASE");
  const auto b = by_session(next, "NEW");
  Inventory inventory;
  for (const auto& r : base) inventory.add(r, options);
  for (const auto& r : next) inventory.add(r, options);
  inventory.check(options);
  Builder builder(options);
  std::vector<std::string> warnings;
  for (const auto& [name, r] : a) {
    const auto other = b.find(name);
    if (other == b.end()) warnings.push_back("session '" + name + "' is only in BASE");
    builder.add(name, r, other == b.end() ? nullptr : other->second);
  }
  for (const auto& [name, r] : b) {
    if (a.count(name)) continue;
    warnings.push_back("session '" + name + "' is only in NEW");
    builder.add(name, nullptr, r);
  }
  Comparison out = builder.finish();
  out.warnings.insert(out.warnings.begin(), warnings.begin(), warnings.end());
  return out;
}

}  // namespace kscope
