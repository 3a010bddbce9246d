#pragma once
// JSON encoding of the pieces of a result, shared by the result file and the journal
// (docs/output-schema.md). Values that are NaN or infinite are written as null and read back as
// NaN.

#include <nlohmann/json.hpp>

#include "core/kernel_record.hpp"
#include "kscope/results.hpp"

namespace kscope::report {

using Json = nlohmann::json;

[[nodiscard]] Json to_json(const Value& v);
[[nodiscard]] Value value_from_json(const Json& j);
[[nodiscard]] Json to_json(const Options& o);
void options_from_json(const Json& j, Options* o);
[[nodiscard]] Json to_json(const Metadata& m);
[[nodiscard]] Metadata metadata_from_json(const Json& j);
[[nodiscard]] Json configs_to_json(const std::vector<Config>& configs);
[[nodiscard]] std::vector<Config> configs_from_json(const Json& j,
                                                    const std::vector<std::string>& parameters);
[[nodiscard]] Json to_json(const RawRow& r);
[[nodiscard]] RawRow raw_row_from_json(const Json& j);
[[nodiscard]] Json to_json(const ProcessedRow& p);
[[nodiscard]] ProcessedRow processed_row_from_json(const Json& j);
[[nodiscard]] Json to_json(const RunLog& r);
[[nodiscard]] RunLog run_log_from_json(const Json& j);
[[nodiscard]] Json to_json(const KernelRecord& k);
[[nodiscard]] KernelRecord kernel_record_from_json(const Json& j);
[[nodiscard]] Json to_json(const TelemetrySample& t);
[[nodiscard]] TelemetrySample telemetry_sample_from_json(const Json& j);
[[nodiscard]] Json to_json(const RunTelemetry& t);
[[nodiscard]] RunTelemetry run_telemetry_from_json(const Json& j);
/// A JSON array of RunTelemetry (the "telemetry" key of results and journal lines).
[[nodiscard]] Json telemetry_to_json(const std::vector<RunTelemetry>& telemetry);
[[nodiscard]] std::vector<RunTelemetry> telemetry_from_json(const Json& j);

[[nodiscard]] Json to_json(const Finding& f);
[[nodiscard]] Finding finding_from_json(const Json& j);
/// A JSON array of Finding (the "findings" key of results).
[[nodiscard]] Json findings_to_json(const std::vector<Finding>& findings);
[[nodiscard]] std::vector<Finding> findings_from_json(const Json& j);

/// The common header of results and journals: schema, name, id, options, metadata, configs.
[[nodiscard]] Json header_json(const Results::Data& d, const char* kind);
void header_from_json(const Json& j, Results::Data* d);

}  // namespace kscope::report
