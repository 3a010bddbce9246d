#pragma once
// The result as one Parquet file (docs/output-schema.md, "Parquet"): the file's own table is
// the raw table with typed columns (pandas.read_parquet reads it); the result's other tables
// (configs, processed, telemetry, stops, timeline phases and kernels) are whole Parquet files
// inside it, at the byte ranges its key-value metadata "kscope.results" names, with the rest of
// the result (name, options, metadata, parameters, info columns, findings, failed configs) as
// the JSON result's members. Written row group by row group, never a tree of the whole result.

#include <ostream>
#include <string>
#include <vector>

#include "kscope/results.hpp"
#include "report/result_reader.hpp"

namespace kscope::report {

/// `config_values`, when given: a JSON array text per config (the first ones, or all), written
/// in place of the engine's values (the Python front's own objects), as write_results_json.
void write_results_parquet(const Results& results, std::ostream& out,
                           const std::vector<std::string>* config_values = nullptr);
/// The same to the file `path`; Error "cannot write '<path>': ..." when it cannot be.
void write_results_parquet(const Results& results, const std::string& path,
                           const std::vector<std::string>* config_values);
/// Whether `path`'s first bytes are Parquet's magic "PAR1".
[[nodiscard]] bool starts_as_parquet(const std::string& head);
/// Reads a file write_results_parquet wrote, with only `tables` of the big tables (the others'
/// column chunks are not read: `kscope show` reads the processed table alone). FileFormatError
/// naming the file and what is wrong: a Parquet file that is not a kscope result, or one kscope's
/// reader cannot read (a codec, an encoding), and what to do.
[[nodiscard]] Results load_parquet(const std::string& path, const ResultTables& tables = {});
/// The JSON text of each config's values in the file (the Python front's objects).
[[nodiscard]] std::vector<std::string> parquet_config_values(const std::string& path);

}  // namespace kscope::report
