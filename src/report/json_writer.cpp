// Format "json": the self-describing result document (docs/output-schema.md), which
// Results::load reads back.

#include "report/writer.hpp"

namespace kscope::report {

extern const Writer kJsonWriter;  // registered in writer_registry.cpp
const Writer kJsonWriter{"json", ".json",
                                "the self-describing result document (kscope.load reads it)",
                                [](const WriteInput& in, std::ostream& out) {
                                  out << in.results.to_json() << "\n";
                                }};

}  // namespace kscope::report
