#pragma once
// What went wrong in a malformed XML document, in words: expat (which parses the sanitizer's
// reports, collect/sanitizer/xml_reader.cpp) reports an error code and a byte offset; this turns
// them into the problem kscope names ("closing tag </c> does not match the open element <b>",
// "unterminated value of attribute 'x'", "the document ends inside <kind>: the file is
// truncated"), looking at the text around the offset, and formats the ToolError's message with
// the line and column.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kscope::sanitizer {

/// A problem at byte offset `at` of the document.
struct XmlFailure {
  std::size_t at = 0;
  std::string problem;
};

/// Where the parser stopped: the document, the byte offset expat reported, whether the root
/// element had started (and its name), and the elements open there, outermost first.
struct XmlErrorContext {
  std::string_view text;
  std::size_t at = 0;
  bool has_root = false;
  std::string root_name;
  std::vector<std::string> open;
};

/// The first entity reference in text[from, to) that is neither predefined nor numeric, as
/// "unknown entity '&name;'" at its '&'.
[[nodiscard]] std::optional<XmlFailure> unknown_reference(std::string_view text, std::size_t from,
                                                          std::size_t to);

/// The problem for expat's error `code` (an XML_Error) in `context`; expat's own text for codes
/// without a better one.
[[nodiscard]] XmlFailure describe_xml_error(int code, const XmlErrorContext& context);

/// "cannot read <source>: line L, column C: <problem>", with " (the document ends there: the
/// file is truncated)" added when the failure is at the end of `text` and says nothing of it.
[[nodiscard]] std::string xml_error_message(std::string_view text, const std::string& source,
                                            const XmlFailure& failure);

}  // namespace kscope::sanitizer
