#pragma once
/// @file compare.hpp
/// kscope::compare: is NEW faster than BASE? Joins two results (or two sets of results, by
/// session name) on (annotation, metric, config), and per row gives both means, the ratio
/// NEW / BASE with its 95 % confidence interval, a p-value and a verdict: FASTER or SLOWER only
/// for a significant change beyond a noise threshold, the rows' tests controlled as a family
/// (Holm). The rules: docs/compare.md. `kscope compare BASE NEW`, `kscope show --compare` and
/// Python's kscope.compare() are its fronts.
///
/// @code
///   auto c = kscope::compare(kscope::Results::load("base.json"),
///                            kscope::Results::load("new.json"), {});
///   c.print(std::cout);
///   if (c.regressed()) return 1;
/// @endcode

#include <cstddef>
#include <iosfwd>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "kscope/results.hpp"

namespace kscope {

/// Which way a metric improves.
enum class Direction {
  kLowerIsBetter,   ///< times, bytes, cycles
  kHigherIsBetter,  ///< throughputs (unit ".../second"), "*pct_of_peak*"
};

/// The outcome of one compared row. FASTER and SLOWER mean better and worse in the metric's
/// direction (for a throughput, FASTER is a higher value).
enum class Verdict {
  kFaster,    ///< "FASTER": significantly better, by more than the noise threshold
  kSlower,    ///< "SLOWER": significantly worse, by more than the noise threshold
  kSame,      ///< "SAME": the change is within the noise threshold
  kUnsure,    ///< "UNSURE": beyond the noise threshold but not significant, or no ratio
  kBaseOnly,  ///< "BASE_ONLY": the row is only in BASE
  kNewOnly,   ///< "NEW_ONLY": the row is only in NEW
};

/// "FASTER", "SLOWER", "SAME", "UNSURE", "BASE_ONLY", "NEW_ONLY".
[[nodiscard]] const char* to_string(Verdict verdict);
/// The colour reports give a verdict ("#rrggbb", white text on it reads): FASTER green, SLOWER
/// red, UNSURE amber, SAME grey, BASE_ONLY blue, NEW_ONLY purple. The notebook table
/// (Comparison::to_html_table) and Python's ratio plot use it; the verdict's text is always shown
/// too.
[[nodiscard]] const char* verdict_color(Verdict verdict);
/// "lower" or "higher".
[[nodiscard]] const char* to_string(Direction direction);

/// The default noise threshold: criterion.rs's (docs/compare.md, "The verdict").
inline constexpr double kDefaultNoise = 0.01;

/// How kscope::compare decides.
struct CompareOptions {
  /// Family-wise significance level of the rows' two-sided tests (Holm), 0 < alpha < 1.
  double alpha = 0.05;
  /// A change of at most this fraction of BASE (0.01: 1 %) is SAME, significant or not;
  /// 0 <= noise < 1.
  double noise = kDefaultNoise;
  /// A SLOWER row worse than this fraction (0.05: 5 %) makes Comparison::regressed() true (the
  /// CLI's non-zero exit); noise <= threshold < 1. nullopt: never.
  std::optional<double> threshold;
  /// Metrics (derived ones, say) declared higher-is-better / lower-is-better; they override the
  /// rules of metric_direction(). Each must be a metric of BASE or NEW.
  std::vector<std::string> higher_is_better;
  std::vector<std::string> lower_is_better;
  /// Filters; empty: every row. A row is compared when its annotation is one of `annotations`,
  /// its metric one of `metrics` (both may hold '*' wildcards) and, for every parameter named
  /// in `configs` ("name=value" each, a parameter may be named more than once), its config's
  /// value is one of those given. Each must match something in BASE or NEW.
  std::vector<std::string> annotations;
  std::vector<std::string> metrics;
  std::vector<std::string> configs;
  /// Throws InvalidArgument for an alpha outside (0, 1), a noise or threshold outside the
  /// ranges above, a metric declared in both lists, or a config filter without '='.
  void validate() const;
};

/// One (annotation, metric, config) of the two results.
struct ComparisonRow {
  std::string session;               ///< the session's name when sets of results are compared
  std::string annotation;
  std::string metric;
  std::string config;                ///< the config's label ("n=1048576"), the join key
  std::optional<std::string> unit;
  Direction direction = Direction::kLowerIsBetter;
  bool direction_declared = false;   ///< false: assumed (no rule knew the metric)
  double base_value = std::numeric_limits<double>::quiet_NaN();  ///< BASE's mean of the runs
  double new_value = std::numeric_limits<double>::quiet_NaN();   ///< NEW's mean of the runs
  std::size_t base_runs = 0;         ///< BASE's runs with a value
  std::size_t new_runs = 0;          ///< NEW's runs with a value
  double base_rsd_pct = std::numeric_limits<double>::quiet_NaN();  ///< 100 sd / |mean|, BASE
  double new_rsd_pct = std::numeric_limits<double>::quiet_NaN();   ///< 100 sd / |mean|, NEW
  double ratio = std::numeric_limits<double>::quiet_NaN();         ///< new_value / base_value
  /// 95 % confidence interval of the ratio (delta method on log(ratio), Welch's degrees of
  /// freedom, Student's t); NaN with fewer than 2 runs on a side or a non-positive mean.
  double ratio_ci_lower = std::numeric_limits<double>::quiet_NaN();
  double ratio_ci_upper = std::numeric_limits<double>::quiet_NaN();
  /// The test of the row: "t" (Welch's t on log(ratio), the interval's own test: fewer than
  /// kUTestMinRuns runs on a side) or "U" (Mann-Whitney); "" without a p-value.
  std::string test;
  double p_value = std::numeric_limits<double>::quiet_NaN();  ///< the test's, two-sided
  /// p_value adjusted by Holm's step-down over the comparison's rows with a p-value: the
  /// verdict is significant when it is below alpha.
  double p_adjusted = std::numeric_limits<double>::quiet_NaN();
  Verdict verdict = Verdict::kUnsure;
  bool within_noise = false;         ///< SAME although significant: the change is within noise
  bool beyond_threshold = false;     ///< SLOWER by more than CompareOptions::threshold
};

/// With at least this many runs on both sides the U test decides, below it Welch's t.
inline constexpr std::size_t kUTestMinRuns = 10;

/// What kscope::compare found.
class Comparison {
 public:
  std::vector<ComparisonRow> rows;   ///< BASE's row order, then the rows only NEW has
  /// Differences between the two measurements that make the comparison doubtful (GPU, clocks,
  /// driver, kscope version, tool, cache control) and metrics whose direction was assumed.
  std::vector<std::string> warnings;
  std::optional<double> threshold;   ///< CompareOptions::threshold used
  double noise = kDefaultNoise;      ///< CompareOptions::noise used
  double alpha = 0.05;               ///< CompareOptions::alpha used
  std::string base_name;             ///< BASE's session name (or file)
  std::string new_name;              ///< NEW's session name (or file)

  /// True when a row is SLOWER beyond the threshold.
  [[nodiscard]] bool regressed() const;
  /// Aligned table, warnings first. `colour`: ANSI colours for a terminal (the header bold,
  /// verdicts FASTER green, SLOWER red, UNSURE yellow, the warnings yellow); `kscope compare`
  /// sets it by the command's colour rule (docs/cli.md, "Colour").
  void print(std::ostream& out, bool colour = false) const;
  /// GitHub-flavoured markdown (a pull-request comment): the summary, the warnings, then a
  /// table with the SLOWER rows first (those beyond the threshold before the others), then
  /// the rest in table order.
  [[nodiscard]] std::string to_markdown() const;
  /// An HTML fragment for a notebook: a <div class="kscope-comparison"> with the summary line,
  /// the warnings and the table of print(), every text escaped; each verdict cell has the class
  /// "kscope-verdict kscope-verdict-<verdict>" (lower case, "-" for "_") and verdict_color()
  /// as its background. `max_rows` > 0: only the first max_rows rows, then a line saying how
  /// many were left out.
  [[nodiscard]] std::string to_html_table(std::size_t max_rows = 0) const;
  /// One CSV row per ComparisonRow (columns in docs/compare.md).
  void write_csv(std::ostream& out) const;
  /// JSON document {"kind": "kscope.comparison", "rows": [...], "warnings": [...], ...}.
  [[nodiscard]] std::string to_json() const;
};

/// A row's verdict as the tables print it: to_string(verdict), followed by " (beyond threshold)"
/// for a row SLOWER beyond the threshold and " (within noise)" for a significant SAME.
[[nodiscard]] std::string verdict_text(const ComparisonRow& row);

/// How `metric` improves: a declaration in `options` first; then "*pct_of_peak*" and units or
/// names of a rate (".../second", "per_second") are higher-is-better; times, bytes and cycles
/// lower-is-better. nullopt: no rule knows it.
[[nodiscard]] std::optional<Direction> metric_direction(const std::string& metric,
                                                        const std::optional<std::string>& unit,
                                                        const CompareOptions& options);

/// The t with P(T <= t) = p for Student's t with `df` degrees of freedom (0 < p < 1, df > 0;
/// NaN otherwise): the quantile behind the CI95 columns (t(0.975, NumRuns - 1)) and the ratio's
/// interval, for scripts that compute intervals of their own samples the same way.
[[nodiscard]] double student_t_quantile(double p, double df);

/// A threshold as a user writes it: "5%" -> 0.05, "0.05" -> 0.05. Throws InvalidArgument for
/// text that is not one ("Invalid threshold 'fast'. Expected a percentage such as 5% or a
/// fraction such as 0.05."), is empty or negative, a bare number of 1 or more ("did you mean
/// 5%?") or a percentage of 100 or more.
[[nodiscard]] double parse_threshold(const std::string& text);
/// A noise threshold as a user writes it, with parse_threshold's rules.
[[nodiscard]] double parse_noise(const std::string& text);

/// Compares NEW against BASE (docs/compare.md). Throws InvalidArgument for bad options, a
/// declared metric or a filter that matches nothing in either result.
[[nodiscard]] Comparison compare(const Results& base, const Results& next,
                                 const CompareOptions& options = {});

/// Compares sets of results joined by session name (Results::name()): one table whose rows
/// name their session, the rows of a session only one side has BASE_ONLY or NEW_ONLY (and a
/// warning). Throws InvalidArgument as compare() does, and when a side has two results of one
/// session.
[[nodiscard]] Comparison compare(const std::vector<Results>& base,
                                 const std::vector<Results>& next,
                                 const CompareOptions& options = {});

/// Compares two directories of results joined by session name, as compare() of two sets: a
/// directory's results are its *.json result files and *.jsonl journals (not its
/// subdirectories), a session's journals only when it has no .json. What loading skipped (a
/// journal's malformed lines) is added to the warnings. Throws InvalidArgument when a path is
/// not a directory ("BASE and NEW must both be result files or both be directories: ...") or a
/// directory holds two results of one session (naming both files), kscope::Error for a
/// directory without results or a file that is not one, and what compare() throws.
[[nodiscard]] Comparison compare_directories(const std::string& base, const std::string& next,
                                             const CompareOptions& options = {});

}  // namespace kscope
