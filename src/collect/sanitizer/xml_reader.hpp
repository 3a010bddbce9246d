#pragma once
// The XML reader for compute-sanitizer's reports: expat (libexpat1-dev; libexpat.so.1 is part of
// every Debian and Ubuntu system) parses the document and this tree is built from its callbacks.
// The text is taken as UTF-8 whatever its declaration says (the caller escapes bytes that are
// not), and entities declared in a DOCTYPE are not expanded (a reference to one is an unknown
// entity). Malformed input (a truncated file, mismatched tags, an unknown entity) is a
// kscope::ToolError naming the file, line and column (collect/sanitizer/xml_error_text.hpp); it
// never crashes, and nesting is limited to kMaxXmlDepth (expat is not recursive; the limit bounds
// the tree built here).

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kscope::sanitizer {

struct XmlElement {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;  ///< in document order, decoded
  std::string text;  ///< character data directly inside this element, entities decoded
  std::vector<XmlElement> children;

  /// The first child named `child_name`, or nullptr.
  [[nodiscard]] const XmlElement* child(std::string_view child_name) const;
  /// Every child named `child_name`, in document order.
  [[nodiscard]] std::vector<const XmlElement*> children_named(std::string_view child_name) const;
  /// The text of the first child named `child_name` without surrounding whitespace; "" when
  /// there is no such child.
  [[nodiscard]] std::string child_text(std::string_view child_name) const;
  /// `text` without surrounding whitespace.
  [[nodiscard]] std::string trimmed_text() const;
  /// The value of attribute `attribute_name`, or nullptr.
  [[nodiscard]] const std::string* attribute(std::string_view attribute_name) const;
};

/// Deepest element nesting parse_xml accepts.
inline constexpr std::size_t kMaxXmlDepth = 256;

/// Parses a whole document and returns its root element. `source` (a path) names the document in
/// errors: "cannot read <source>: line L, column C: <problem>".
[[nodiscard]] XmlElement parse_xml(std::string_view text, const std::string& source);

}  // namespace kscope::sanitizer
