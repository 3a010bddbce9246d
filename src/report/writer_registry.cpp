// The registry of output formats: one line per format (its file in src/report/ defines the
// Writer). The order is the order of `kscope show --help` and kscope.output_formats().

#include "report/writer.hpp"

#include "kscope/errors.hpp"

// clang-format off
#define KSCOPE_WRITERS(X) \
  X(kTableWriter)         \
  X(kCsvWriter)           \
  X(kRawCsvWriter)        \
  X(kFindingsCsvWriter)   \
  X(kJsonWriter)          \
  X(kParquetWriter)       \
  X(kTraceWriter)         \
  X(kHtmlWriter)          \
  X(kMarkdownWriter)
// clang-format on

namespace kscope::report {

#define KSCOPE_DECLARE_WRITER(w) extern const Writer w;
KSCOPE_WRITERS(KSCOPE_DECLARE_WRITER)
#undef KSCOPE_DECLARE_WRITER

const std::vector<const Writer*>& writers() {
#define KSCOPE_LIST_WRITER(w) &w,
  static const std::vector<const Writer*> all = {KSCOPE_WRITERS(KSCOPE_LIST_WRITER)};
#undef KSCOPE_LIST_WRITER
  return all;
}

const Writer& find_writer(const std::string& name) {
  std::string names;
  for (const Writer* w : writers()) {
    if (w->name == name) return *w;
    names += (names.empty() ? "" : ", ") + std::string(w->name);
  }
  throw InvalidArgument("unknown output format '" + name + "' (expected one of: " + names + ")");
}

void check_compare(const Writer& writer, const Results* compare) {
  if (!compare || writer.compares) return;
  std::string names;
  for (const Writer* w : writers()) {
    if (w->compares) names += (names.empty() ? "" : ", ") + std::string(w->name);
  }
  throw InvalidArgument("format '" + std::string(writer.name) +
                        "' has no compare table: a baseline (kscope show --compare, compare=) "
                        "applies to " + names + " only. Leave it out, or choose one of those.");
}

void check_text(const Writer& writer, const std::string& where) {
  if (!writer.binary) return;
  throw InvalidArgument("format '" + std::string(writer.name) + "' writes a binary file, not " +
                        "text: it cannot be written " + where + ". Write it to a file (kscope " +
                        "show -f " + writer.name + " -o FILE, write(\"" + writer.name +
                        "\", path))");
}

}  // namespace kscope::report

namespace kscope {

std::vector<OutputFormat> output_formats() {
  std::vector<OutputFormat> out;
  for (const report::Writer* w : report::writers()) {
    out.push_back({w->name, w->extension, w->description});
  }
  return out;
}

}  // namespace kscope
