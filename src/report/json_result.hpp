#pragma once
// The JSON result document (docs/output-schema.md), streamed: each row is encoded as text and
// written at once (report/json_stream), so writing a result takes what its bytes take and
// never holds a tree of it. Results::to_json(), the "json" format and the Python front's
// to_json write it.

#include <ostream>
#include <string>
#include <vector>

#include "kscope/results.hpp"

namespace kscope::report {

/// `config_values`, when given: a JSON array text per config (the first ones, or all), written
/// as its "values" in place of the engine's (the Python front's own objects).
void write_results_json(const Results& results, std::ostream& out,
                        const std::vector<std::string>* config_values = nullptr);
/// The document and its final new line to the file `path`; Error "cannot write '<path>': ..."
/// when it cannot be.
void write_results_json(const Results& results, const std::string& path,
                        const std::vector<std::string>* config_values);

}  // namespace kscope::report
