#pragma once
/// @file compare.hpp
/// kscope::compare: is NEW faster than BASE? Joins two results on (annotation, metric, config),
/// and per row gives both means, the ratio NEW / BASE with its 95 % confidence interval and a
/// verdict from a Mann-Whitney U test on the raw runs, noise-aware like nvbench_compare
/// (docs/compare.md). `kscope compare BASE NEW` and Python's kscope.compare() are its fronts.
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
  kFaster,    ///< "FASTER": significantly better, by more than the quieter side's noise
  kSlower,    ///< "SLOWER": significantly worse, by more than the quieter side's noise
  kSame,      ///< "SAME": the difference is within the quieter side's noise
  kUnsure,    ///< "UNSURE": beyond the noise but not significant (or too few runs to tell)
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

/// How kscope::compare decides.
struct CompareOptions {
  /// Significance level of the two-sided Mann-Whitney U test, 0 < alpha < 1.
  double alpha = 0.05;
  /// A SLOWER row worse than this fraction (0.05: 5 %) makes Comparison::regressed() true (the
  /// CLI's non-zero exit). nullopt: never.
  std::optional<double> threshold;
  /// Metrics (derived ones, say) declared higher-is-better / lower-is-better; they override the
  /// rules of metric_direction().
  std::vector<std::string> higher_is_better;
  std::vector<std::string> lower_is_better;
  /// Throws InvalidArgument for an alpha outside (0, 1), a negative threshold, or a metric
  /// declared in both lists.
  void validate() const;
};

/// One (annotation, metric, config) of the two results.
struct ComparisonRow {
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
  double p_value = std::numeric_limits<double>::quiet_NaN();  ///< Mann-Whitney U, two-sided
  Verdict verdict = Verdict::kUnsure;
  bool beyond_threshold = false;     ///< SLOWER by more than CompareOptions::threshold
};

/// What kscope::compare found.
class Comparison {
 public:
  std::vector<ComparisonRow> rows;   ///< BASE's row order, then the rows only NEW has
  /// Differences between the two measurements that make the comparison doubtful (GPU, clocks,
  /// driver, kscope version, tool, cache control) and metrics whose direction was assumed.
  std::vector<std::string> warnings;
  std::optional<double> threshold;   ///< CompareOptions::threshold used
  std::string base_name;             ///< BASE's session name (or file)
  std::string new_name;              ///< NEW's session name (or file)

  /// True when a row is SLOWER beyond the threshold.
  [[nodiscard]] bool regressed() const;
  /// Aligned table, warnings first. `colour`: ANSI colours for a terminal (the header bold,
  /// verdicts FASTER green, SLOWER red, UNSURE yellow, the warnings yellow); `kscope compare`
  /// sets it by the command's colour rule (docs/cli.md, "Colour").
  void print(std::ostream& out, bool colour = false) const;
  /// GitHub-flavoured markdown (a pull-request comment): warnings, then a table.
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
/// for a row SLOWER beyond the threshold.
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

/// A threshold as a user writes it: "5%" -> 0.05, "0.05" -> 0.05. Throws InvalidArgument
/// ("Invalid threshold 'fast'. Expected a percentage such as 5% or a fraction such as 0.05.").
[[nodiscard]] double parse_threshold(const std::string& text);

/// Compares NEW against BASE (docs/compare.md). Throws InvalidArgument for bad options.
[[nodiscard]] Comparison compare(const Results& base, const Results& next,
                                 const CompareOptions& options = {});

}  // namespace kscope
