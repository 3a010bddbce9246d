#pragma once
/// @file info_collector.hpp
/// Info collectors: user callbacks whose values become extra columns of the results, called
/// once per profile() call, once per config, before each run or at each entry of an annotation
/// (nsight-python's experimental info collectors; docs/info-collectors.md).

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kscope/config.hpp"
#include "kscope/errors.hpp"
#include "kscope/info_value.hpp"

namespace kscope {

/// When an info collector is called.
enum class CollectionScope {
  kOnce,        ///< once per profile() call, before the first config
  kConfig,      ///< once per config, before its runs (warm-up runs included)
  kRun,         ///< before each measured run (not before warm-up runs)
  kAnnotation,  ///< at each entry of an annotation in a measured run, before it opens
};

/// "once", "config", "run" or "annotation".
[[nodiscard]] const char* scope_name(CollectionScope scope);
/// The scope named "once", "config", "run" or "annotation"; nullopt for any other text.
[[nodiscard]] std::optional<CollectionScope> scope_from_name(std::string_view name);

/// What a collector's callback is told about the call.
struct InfoCall {
  CollectionScope scope = CollectionScope::kOnce;
  const Config* config = nullptr;  ///< the config being profiled; nullptr at ONCE scope
  std::string_view annotation;     ///< ANNOTATION scope: the annotation being entered
};

/// A collector's callback. Returns the value of its column for this call (empty: no value).
/// An exception derived from std::exception leaves the value empty and is reported once per
/// collector and profile() call as a warning; profiling goes on. Other exceptions end profiling.
using InfoFn = std::function<InfoValue(const InfoCall& call)>;

/**
 * One custom column: a name, a scope and a callback.
 *
 * Columns: ONCE collectors, and collectors that returned a string, give one column named after
 * the collector (the first value of each group in the processed table); numeric CONFIG, RUN and
 * ANNOTATION collectors give `<name>_Avg`, `<name>_Std`, `<name>_Min`, `<name>_Max` there. In
 * the raw table every collector has one column named after it.
 *
 * @code
 *   opt.info_collectors = {
 *       kscope::InfoCollector::once("driver", [] { return "580.65"; }),
 *       kscope::InfoCollector::per_config("bytes", [](const kscope::Config& c) {
 *         return 12.0 * c.get<double>("n");
 *       }),
 *       kscope::InfoCollector::per_annotation("entry", [](std::string_view a, const kscope::Config&) {
 *         return std::string(a);
 *       }),
 *   };
 * @endcode
 *
 * ANNOTATION callbacks run on the thread that opens the annotation, which may be a worker
 * thread of the benchmark.
 */
struct InfoCollector {
  std::string name;                              ///< column name (unique, not a reserved column)
  CollectionScope scope = CollectionScope::kRun;  ///< when it is called
  InfoFn callback;                               ///< what it returns

  /// A collector called once per profile() call.
  [[nodiscard]] static InfoCollector once(std::string name, std::function<InfoValue()> fn);
  /// A collector called once per config, before its runs.
  [[nodiscard]] static InfoCollector per_config(std::string name,
                                                std::function<InfoValue(const Config&)> fn);
  /// A collector called before each measured run.
  [[nodiscard]] static InfoCollector per_run(std::string name,
                                             std::function<InfoValue(const Config&)> fn);
  /// A collector called at each entry of an annotation (measured runs), before it opens.
  [[nodiscard]] static InfoCollector per_annotation(
      std::string name, std::function<InfoValue(std::string_view annotation, const Config&)> fn);
};

/// Thrown by a callback (language bindings do) to name the failure's type in the warning, e.g.
/// "ValueError"; any other std::exception is named by its C++ type.
class InfoCollectorError : public Error {
 public:
  InfoCollectorError(std::string type, const std::string& message)
      : Error(message), type_(std::move(type)) {}
  [[nodiscard]] const std::string& type() const noexcept { return type_; }

 private:
  std::string type_;
};

/// The column names a collector may not take: those of the raw and processed tables
/// (nsight-python's set plus kscope's telemetry columns), sorted.
[[nodiscard]] const std::vector<std::string>& reserved_column_names();

/// Throws kscope::InvalidArgument, with nsight-python's texts, when a collector has no name or
/// no callback, a name is used twice, is a reserved column name (or, for a collector whose
/// column may be aggregated, its `_Avg`/`_Std`/`_Min`/`_Max` column is), or is the name of one
/// of `parameters` (the columns of the config values; `function` names the benchmark in that
/// message). Options::validate calls it without parameters, profile() with the configs' names.
void validate_info_collectors(const std::vector<InfoCollector>& collectors,
                              const std::vector<std::string>& parameters = {},
                              std::string_view function = {});

/// How one collector appears in the results.
struct InfoColumn {
  std::string name;                              ///< the collector's name
  CollectionScope scope = CollectionScope::kOnce;  ///< its scope
  /// Numeric CONFIG/RUN/ANNOTATION collector: the processed table has `<name>_Avg`, `_Std`,
  /// `_Min`, `_Max` (mean, standard deviation with ddof 1, min, max over the group's runs)
  /// instead of `<name>` (the group's first value).
  bool aggregated = false;
};

/// The raw table's columns of `columns`: one per collector, named after it.
[[nodiscard]] std::vector<std::string> raw_info_columns(const std::vector<InfoColumn>& columns);
/// The processed table's columns of `columns`, in order: `<name>` or its four aggregates.
[[nodiscard]] std::vector<std::string> processed_info_columns(
    const std::vector<InfoColumn>& columns);

}  // namespace kscope
