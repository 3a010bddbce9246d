#include "collect/sanitizer/xml_error_text.hpp"

#include <expat.h>

#include <algorithm>
#include <cstdio>
#include <optional>

namespace kscope::sanitizer {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

bool is_name_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') ||
         u == '_' || u == ':' || u == '-' || u == '.' || u >= 0x80;
}

bool starts_with(std::string_view s, std::size_t at, std::string_view prefix) {
  return at <= s.size() && s.substr(at).substr(0, prefix.size()) == prefix;
}

std::string name_at(std::string_view s, std::size_t at) {
  std::size_t end = at;
  while (end < s.size() && is_name_char(s[end])) ++end;
  return std::string(s.substr(at, end - at));
}

// Where an offset falls in the start tag that begins at a '<'.
enum class TagPart {
  kName,
  kSpace,
  kAttributeName,
  kBeforeEquals,
  kBeforeValue,
  kValue,
  kAfterValue,
};

struct TagPlace {
  std::string element;
  std::string attribute;
  std::size_t attribute_at = 0;  ///< offset of the attribute's name
  TagPart part = TagPart::kName;
};

// Scans the start tag at `tag` up to (not including) `at`; nullopt when the tag ends before.
std::optional<TagPlace> scan_tag(std::string_view s, std::size_t tag, std::size_t at) {
  TagPlace t;
  char quote = 0;
  for (std::size_t i = tag + 1; i < at && i < s.size(); ++i) {
    const char c = s[i];
    // The '/' of "/>" as the last character before `at`: still in the tag.
    if (c == '/' && i + 1 == at && t.part != TagPart::kValue && !t.element.empty()) {
      t.part = TagPart::kSpace;
      break;
    }
    switch (t.part) {
      case TagPart::kName:
        if (is_name_char(c)) {
          t.element.push_back(c);
          continue;
        }
        if (!is_space(c)) return std::nullopt;
        t.part = TagPart::kSpace;
        break;
      case TagPart::kSpace:
        if (is_space(c)) continue;
        if (!is_name_char(c)) return std::nullopt;
        t.attribute.assign(1, c);
        t.attribute_at = i;
        t.part = TagPart::kAttributeName;
        break;
      case TagPart::kAttributeName:
        if (is_name_char(c)) {
          t.attribute.push_back(c);
        } else if (c == '=') {
          t.part = TagPart::kBeforeValue;
        } else if (is_space(c)) {
          t.part = TagPart::kBeforeEquals;
        } else {
          return std::nullopt;
        }
        break;
      case TagPart::kBeforeEquals:
        if (c == '=') {
          t.part = TagPart::kBeforeValue;
        } else if (!is_space(c)) {
          return std::nullopt;
        }
        break;
      case TagPart::kBeforeValue:
        if (c == '"' || c == '\'') {
          quote = c;
          t.part = TagPart::kValue;
        } else if (!is_space(c)) {
          return std::nullopt;
        }
        break;
      case TagPart::kValue:
        if (c == quote) t.part = TagPart::kAfterValue;
        break;
      case TagPart::kAfterValue:
        if (!is_space(c)) return std::nullopt;
        t.part = TagPart::kSpace;
        break;
    }
  }
  return t;
}

// The problem at `at` inside the start tag described by `t`; at the end of the text when
// `at` is there.
std::string tag_problem_text(std::string_view s, std::size_t at, const TagPlace& t) {
  const bool end = at >= s.size();
  const std::string in_tag = " in the tag <" + t.element + ">";
  switch (t.part) {
    case TagPart::kValue:
      if (!end && s[at] == '<') return "'<' in the value of attribute '" + t.attribute + "'";
      break;
    case TagPart::kBeforeValue:
      if (!end) return "expected a quoted value for attribute '" + t.attribute + "'";
      break;
    case TagPart::kAttributeName:
    case TagPart::kBeforeEquals:
      if (!end) return "expected '=' after attribute '" + t.attribute + "'";
      break;
    case TagPart::kSpace:
      if (!end) return "expected an attribute name, '>' or '/>'" + in_tag;
      break;
    case TagPart::kName:
    case TagPart::kAfterValue:
      if (!end) return "expected whitespace, '>' or '/>'" + in_tag;
      break;
  }
  if (end) return "the document ends inside the tag <" + t.element + ">: the file is truncated";
  return "not well-formed" + in_tag;
}

// The same with where it is: an unterminated value where its attribute starts.
XmlFailure tag_problem(std::string_view s, std::size_t at, const TagPlace& t) {
  const bool end = at >= s.size();
  if (t.part == TagPart::kValue && end) {
    return {t.attribute_at, "unterminated value of attribute '" + t.attribute + "'"};
  }
  return {at, tag_problem_text(s, at, t)};
}

// A bad '&' reference whose invalid character is at `at`: the '&' and its problem.
std::optional<XmlFailure> reference_problem(std::string_view s, std::size_t at) {
  std::size_t amp = at;
  for (std::size_t back = 0; back <= 12 && amp > 0; ++back) {
    --amp;
    if (s[amp] == '&') break;
    if (!is_name_char(s[amp]) && s[amp] != '#') return std::nullopt;
  }
  if (amp >= s.size() || s[amp] != '&') return std::nullopt;
  const std::size_t semi = s.find(';', amp);
  if (semi != std::string_view::npos && semi - amp <= 12 && starts_with(s, amp, "&#")) {
    return XmlFailure{
        amp, "invalid character reference '" + std::string(s.substr(amp, semi - amp + 1)) + "'"};
  }
  return XmlFailure{amp, "'&' that does not start an entity reference (write &amp; for '&')"};
}

std::string inside(const XmlErrorContext& c) {
  return c.open.empty() ? std::string() : " inside <" + c.open.back() + ">";
}

// expat's "not well-formed (invalid token)" at c.at, the character it could not take.
XmlFailure invalid_token(const XmlErrorContext& c) {
  const std::string_view s = c.text;
  const std::size_t at = c.at;
  if (at < s.size()) {
    const auto u = static_cast<unsigned char>(s[at]);
    if (u < 0x20 && !is_space(s[at])) {
      char code[8];
      std::snprintf(code, sizeof code, "%04X", u);
      return {at, std::string("character U+") + code + " is not allowed in XML"};
    }
  }
  if (at >= 2 && starts_with(s, at - 2, "<!")) {
    return {at - 2, "unexpected markup declaration" + inside(c)};
  }
  if (at >= 2 && starts_with(s, at - 2, "</")) return {at, "expected closing tag"};
  if (at >= 1 && s[at - 1] == '<') return {at, "expected element name"};
  if (auto ref = reference_problem(s, at)) return *ref;
  if (at >= 2 && starts_with(s, at - 2, "]]>")) {
    return {at - 2, "']]>' in character data (write ]]&gt;)"};
  }
  const std::size_t tag = at == 0 ? std::string_view::npos : s.rfind('<', at - 1);
  if (tag != std::string_view::npos && !starts_with(s, tag, "</")) {
    if (const auto place = scan_tag(s, tag, at)) return tag_problem(s, at, *place);
  }
  if (!c.has_root) return {at, "expected the root element ('<'), found text"};
  return {at, XML_ErrorString(XML_ERROR_INVALID_TOKEN)};
}

// expat's "unclosed token": the document ends inside the construct that starts at c.at.
XmlFailure unclosed_token(const XmlErrorContext& c) {
  const std::string_view s = c.text;
  const std::size_t at = c.at;
  if (starts_with(s, at, "<!--")) return {at, "unterminated comment"};
  if (starts_with(s, at, "<![CDATA[")) return {at, "unterminated CDATA section"};
  if (starts_with(s, at, "<?")) return {at, "unterminated processing instruction"};
  if (starts_with(s, at, "<!DOCTYPE")) return {at, "unterminated DOCTYPE"};
  if (starts_with(s, at, "</")) {
    return {at, "the document ends inside the closing tag </" + name_at(s, at + 2) +
                    ": the file is truncated"};
  }
  if (starts_with(s, at, "&")) {
    return {at, "'&' that does not start an entity reference (write &amp; for '&')"};
  }
  if (starts_with(s, at, "<")) {
    if (const auto place = scan_tag(s, at, s.size())) {
      XmlFailure f = tag_problem(s, s.size(), *place);
      if (f.at >= s.size()) f.at = at;  // where the cut tag starts
      return f;
    }
  }
  return {at, "the document ends inside a markup construct: the file is truncated"};
}

// expat's "undefined entity": in content it points at the reference, in an attribute value at
// the tag; the reference is the first one there that is neither predefined nor numeric.
XmlFailure undefined_entity(const XmlErrorContext& c) {
  if (auto f = unknown_reference(c.text, c.at, c.text.size())) return *f;
  return {c.at, XML_ErrorString(XML_ERROR_UNDEFINED_ENTITY)};
}

// The end of the document before the root element ended.
XmlFailure early_end(const XmlErrorContext& c) {
  if (!c.open.empty()) {
    return {c.text.size(),
            "the document ends inside <" + c.open.back() + ">: the file is truncated"};
  }
  const std::size_t last = c.text.rfind('<');
  if (last != std::string_view::npos && starts_with(c.text, last, "<!DOCTYPE") &&
      c.text.find('>', last) == std::string_view::npos) {
    return {last, "unterminated DOCTYPE"};
  }
  return {c.text.size(), "the document is empty: it has no root element (is the file truncated?)"};
}

}  // namespace

std::optional<XmlFailure> unknown_reference(std::string_view s, std::size_t from, std::size_t to) {
  to = std::min(to, s.size());
  for (std::size_t amp = s.find('&', from); amp < to; amp = s.find('&', amp + 1)) {
    const std::size_t semi = s.find(';', amp);
    if (semi == std::string_view::npos) break;
    const std::string_view ref = s.substr(amp, semi - amp + 1);
    if (ref == "&lt;" || ref == "&gt;" || ref == "&amp;" || ref == "&quot;" || ref == "&apos;" ||
        starts_with(ref, 0, "&#")) {
      continue;
    }
    return XmlFailure{amp, "unknown entity '" + std::string(ref) + "'"};
  }
  return std::nullopt;
}

XmlFailure describe_xml_error(int code, const XmlErrorContext& context) {
  XmlErrorContext c = context;
  c.at = std::min(c.at, c.text.size());
  const std::string_view s = c.text;
  switch (code) {
    case XML_ERROR_NO_ELEMENTS:
      return early_end(c);
    case XML_ERROR_UNCLOSED_TOKEN:
      return unclosed_token(c);
    case XML_ERROR_PARTIAL_CHAR:
      return {c.at, "the document ends inside a character: the file is truncated"};
    case XML_ERROR_UNCLOSED_CDATA_SECTION: {
      const std::size_t start = s.rfind("<![CDATA[", c.at);
      return {start == std::string_view::npos ? c.at : start, "unterminated CDATA section"};
    }
    case XML_ERROR_INVALID_TOKEN:
      return invalid_token(c);
    case XML_ERROR_SYNTAX:
      if (!c.has_root) return {c.at, "expected the root element ('<'), found text"};
      break;
    case XML_ERROR_TAG_MISMATCH: {
      // expat points at the name after "</".
      const std::size_t start = c.at >= 2 ? c.at - 2 : c.at;
      return {start, "closing tag </" + name_at(s, c.at) + "> does not match the open element <" +
                         (c.open.empty() ? std::string() : c.open.back()) + ">"};
    }
    case XML_ERROR_DUPLICATE_ATTRIBUTE: {
      const std::size_t tag = c.at == 0 ? std::string_view::npos : s.rfind('<', c.at - 1);
      const std::string element = tag == std::string_view::npos ? "" : name_at(s, tag + 1);
      return {c.at, "attribute '" + name_at(s, c.at) + "' appears twice in <" + element + ">"};
    }
    case XML_ERROR_JUNK_AFTER_DOC_ELEMENT:
      return {c.at, "content after the end of the root element </" + c.root_name + ">"};
    case XML_ERROR_UNDEFINED_ENTITY:
      return undefined_entity(c);
    case XML_ERROR_BAD_CHAR_REF: {
      const std::size_t semi = s.find(';', c.at);
      const std::size_t end = semi == std::string_view::npos ? s.size() : semi + 1;
      return {c.at, "invalid character reference '" + std::string(s.substr(c.at, end - c.at)) +
                        "'"};
    }
    default:
      break;
  }
  const char* text = XML_ErrorString(static_cast<XML_Error>(code));
  return {c.at, text != nullptr ? text : "malformed XML"};
}

std::string xml_error_message(std::string_view text, const std::string& source,
                              const XmlFailure& failure) {
  std::size_t line = 1;
  std::size_t column = 1;
  for (std::size_t i = 0; i < failure.at && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  const bool cut =
      failure.at >= text.size() && failure.problem.find("truncated") == std::string::npos;
  return "cannot read " + source + ": line " + std::to_string(line) + ", column " +
         std::to_string(column) + ": " + failure.problem +
         (cut ? " (the document ends there: the file is truncated)" : "");
}

}  // namespace kscope::sanitizer
