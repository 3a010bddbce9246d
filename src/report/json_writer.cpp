// Format "json": the self-describing result document (docs/output-schema.md), which
// Results::load reads back.

#include "report/json_result.hpp"
#include "report/writer.hpp"

namespace kscope::report {

extern const Writer kJsonWriter;  // registered in writer_registry.cpp
const Writer kJsonWriter{"json", ".json",
                                "the self-describing result document (kscope.load reads it)",
                                [](const WriteInput& in, std::ostream& out) {
                                  write_results_json(in.results, out);
                                  out << "\n";
                                }};

}  // namespace kscope::report
