#pragma once
// JSON encoding of the pieces of a result, shared by the result file and the journal
// (docs/output-schema.md). Values that are NaN or infinite are written as null and read back as
// NaN. Reading checks every member through JsonField: a malformed value throws FileFormatError
// naming its JSON path. Each reader reads a JsonField (a tree) or a TapeField (json_tape.hpp, big
// results read fast; what it cannot read throws TapeMiss).

#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "core/kernel_record.hpp"
#include "kscope/results.hpp"
#include "report/json_field.hpp"
#include "report/json_tape.hpp"

namespace kscope::report {

/// The JSON text of `j` (`indent` < 0: one line). Strings that are not UTF-8 (names from the C++
/// API; names from files are escaped when read, core/utf8.hpp) are written with U+FFFD in place
/// of each bad byte instead of failing the write.
[[nodiscard]] std::string to_text(const Json& j, int indent = -1);

[[nodiscard]] Json to_json(const Value& v);
template <class F>
[[nodiscard]] Value value_from_json(const F& j);
[[nodiscard]] Json to_json(const Options& o);
template <class F>
void options_from_json(const F& j, Options* o);
[[nodiscard]] Json to_json(const Metadata& m);
template <class F>
[[nodiscard]] Metadata metadata_from_json(const F& j);
[[nodiscard]] Json configs_to_json(const std::vector<Config>& configs);
/// One element of "configs": config number `index` of the sweep.
template <class F>
[[nodiscard]] Config config_from_json(const F& c, const std::vector<std::string>& parameters,
                                      std::size_t index);
template <class F>
[[nodiscard]] std::vector<Config> configs_from_json(const F& j,
                                                    const std::vector<std::string>& parameters);
/// `info_names`: the names of the row's info columns (Results::info_columns() for raw rows,
/// processed_info_columns() of them for processed rows); the row's "info" object is keyed by them
/// and written only when there are info columns.
[[nodiscard]] Json to_json(const RawRow& r, const std::vector<std::string>& info_names = {});
template <class F>
[[nodiscard]] RawRow raw_row_from_json(const F& j,
                                       const std::vector<std::string>& info_names = {});
[[nodiscard]] Json to_json(const ProcessedRow& p, const std::vector<std::string>& info_names = {});
template <class F>
[[nodiscard]] ProcessedRow processed_row_from_json(const F& j,
                                                   const std::vector<std::string>& info_names = {});
/// An info collector's value: a number (null when NaN), a string, or null (no value).
[[nodiscard]] Json to_json(const InfoValue& v);
template <class F>
[[nodiscard]] InfoValue info_value_from_json(const F& j);
/// The "info_columns" array of results: name, scope, aggregated.
[[nodiscard]] Json info_columns_to_json(const std::vector<InfoColumn>& columns);
template <class F>
[[nodiscard]] std::vector<InfoColumn> info_columns_from_json(const F& j);
[[nodiscard]] Json to_json(const RunLog& r);
template <class F>
[[nodiscard]] RunLog run_log_from_json(const F& j);
/// Throws FileFormatError at `at` when a run's `entered` names an annotation twice.
template <class F>
void check_entered_once(const F& at, const std::vector<std::string>& entered);
[[nodiscard]] Json to_json(const KernelRecord& k);
template <class F>
[[nodiscard]] KernelRecord kernel_record_from_json(const F& j);
/// The session's timeline (docs/output-schema.md): phase spans, kernel spans, and the
/// "timeline" object of results. A span ending before it starts is a FileFormatError.
[[nodiscard]] Json to_json(const PhaseSpan& p);
template <class F>
[[nodiscard]] PhaseSpan phase_span_from_json(const F& j);
[[nodiscard]] Json phases_to_json(const PhaseSpans& phases);
template <class F>
[[nodiscard]] std::vector<PhaseSpan> phases_from_json(const F& j);
/// A journal line's "phase_laps" (json_text.hpp, append_phases) back as spans.
template <class F>
[[nodiscard]] std::vector<PhaseSpan> phase_laps_from_json(const F& j);
[[nodiscard]] Json to_json(const KernelSpan& k);
template <class F>
[[nodiscard]] KernelSpan kernel_span_from_json(const F& j);
[[nodiscard]] Json to_json(const Timeline& t);
template <class F>
[[nodiscard]] Timeline timeline_from_json(const F& j);
template <class F>
[[nodiscard]] TelemetrySample telemetry_sample_from_json(const F& j);
[[nodiscard]] Json to_json(const RunTelemetry& t);
template <class F>
[[nodiscard]] RunTelemetry run_telemetry_from_json(const F& j);
/// A JSON array of RunTelemetry (the "telemetry" key of results and journal lines).
[[nodiscard]] Json telemetry_to_json(const std::vector<RunTelemetry>& telemetry);
template <class F>
[[nodiscard]] std::vector<RunTelemetry> telemetry_from_json(const F& j);

[[nodiscard]] Json to_json(const Finding& f);
template <class F>
[[nodiscard]] Finding finding_from_json(const F& j);
/// A JSON array of Finding (the "findings" key of results).
[[nodiscard]] Json findings_to_json(const std::vector<Finding>& findings);
template <class F>
[[nodiscard]] std::vector<Finding> findings_from_json(const F& j);

[[nodiscard]] Json to_json(const ConfigFailure& f);
template <class F>
[[nodiscard]] ConfigFailure config_failure_from_json(const F& j);
/// A JSON array of ConfigFailure (the "failed_configs" key of results and journal lines).
[[nodiscard]] Json failures_to_json(const std::vector<ConfigFailure>& failures);
/// Checks every config index against `configs` (the header's count).
template <class F>
[[nodiscard]] std::vector<ConfigFailure> failures_from_json(const F& j, std::size_t configs);
/// A ConfigStop of Options::adaptive (the journal's "stop" line, the result's "stops").
[[nodiscard]] Json to_json(const ConfigStop& s);
template <class F>
[[nodiscard]] ConfigStop config_stop_from_json(const F& j);

/// Throws FileFormatError at `row`'s "config" member unless `config` < `count` (the number of
/// configs of the header).
template <class F>
void check_config_index(const F& row, std::size_t config, std::size_t count);

/// Appends `row`, read from `j`, to `rows` once check_config_index(j, row.config, configs) holds.
template <class F, class Row>
void append_checked(const F& j, Row row, std::vector<Row>* rows, std::size_t configs) {
  check_config_index(j, row.config, configs);
  rows->push_back(std::move(row));
}

/// The common header of results and journals: schema_version, kind, name, id, the members of
/// `after_id` (a result's "complete" and "journal"), options, metadata, parameters, configs.
/// Whether the result read from a file is a check's (Results::Data::checked): the files name
/// the tool (the metadata's, else the options'), not whether it checks, which the tool registry
/// says (tool_checks()).
[[nodiscard]] bool names_a_checking_tool(const Results::Data& d);

[[nodiscard]] Json header_json(const Results::Data& d, const char* kind,
                               const Json& after_id = Json::object());
/// The header up to its configs, which a streamed result writes one by one.
[[nodiscard]] Json header_json_before_configs(const Results::Data& d, const char* kind,
                                              const Json& after_id);
/// Reads the header into `d`; returns its schema_version's major number, which must be from 1 to
/// `newest`'s (a FileFormatError otherwise).
template <class F>
int header_from_json(const F& j, Results::Data* d, const char* newest = kSchemaVersion);
/// The same without the configs (a streamed read reads them one by one, config_from_json).
template <class F>
int header_before_configs_from_json(const F& j, Results::Data* d,
                                    const char* newest = kSchemaVersion);

}  // namespace kscope::report
