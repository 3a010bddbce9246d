#pragma once
// An output format of Results::write. A format is one file in src/report/ that defines a
// `const Writer` (its name, file extension, one-line description and write function) plus one
// line in writer_registry.cpp; nothing else changes: Results::write, `kscope show --format`,
// Python's ProfileResults.write and output_formats() find it through the registry
// (docs/outputs.md, "Adding a format").

#include <ostream>
#include <string>
#include <vector>

#include "kscope/results.hpp"
#include "report/result_reader.hpp"

namespace kscope::report {

/// What a writer writes from.
struct WriteInput {
  const Results& results;            ///< the result to write
  const Results* compare = nullptr;  ///< a second result to compare with (WriteOptions::compare)
  bool colour = false;               ///< ANSI colours (WriteOptions::colour)
  bool full_paths = false;           ///< absolute paths in full (WriteOptions::full_paths)
};

struct Writer {
  const char* name;         ///< the format's name: "--format <name>", Results::write(name, ...)
  const char* extension;    ///< file name ending, with the dot: ".json"
  const char* description;  ///< one line for `kscope show --help` and docs
  /// Writes the whole document to `out`; throws kscope::Error for what it cannot write.
  void (*write)(const WriteInput& in, std::ostream& out);
  bool compares = false;    ///< writes a compare table when given a baseline (WriteInput::compare)
  /// The tables of a result file it writes from: `kscope show` reads only those of a big result
  /// (report/result_reader.hpp); a compare table also needs the raw runs of both results.
  ResultTables reads{};
  bool binary = false;      ///< writes bytes, not text: to a file, never as text or to a terminal
};

/// Every registered writer, in registry order.
[[nodiscard]] const std::vector<const Writer*>& writers();
/// The writer called `name`; InvalidArgument naming the registered formats when there is none.
[[nodiscard]] const Writer& find_writer(const std::string& name);
/// InvalidArgument naming the formats that compare when `compare` is set and `writer` does not
/// compare (a baseline it would ignore without a word).
void check_compare(const Writer& writer, const Results* compare);
/// InvalidArgument when `writer` is binary: "format 'parquet' writes a binary file: give it a
/// file (...)". `where` says what asked for text ("as text", "to a terminal").
void check_text(const Writer& writer, const std::string& where);

}  // namespace kscope::report
