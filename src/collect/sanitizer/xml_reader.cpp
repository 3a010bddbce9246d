#include "collect/sanitizer/xml_reader.hpp"

#include <cstdint>

#include "kscope/errors.hpp"

namespace kscope::sanitizer {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

bool is_name_start(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || u == '_' || u == ':' || u >= 0x80;
}

bool is_name_char(char c) {
  return is_name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

std::string trim(std::string_view s) {
  std::size_t b = 0;
  std::size_t e = s.size();
  while (b < e && is_space(s[b])) ++b;
  while (e > b && is_space(s[e - 1])) --e;
  return std::string(s.substr(b, e - b));
}

void append_utf8(std::string* out, std::uint32_t cp) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

class Parser {
 public:
  Parser(std::string_view text, const std::string& source) : s_(text), source_(source) {}

  XmlElement run() {
    if (looking_at("\xEF\xBB\xBF")) pos_ += 3;  // UTF-8 byte order mark
    skip_misc();
    if (at_end()) fail("the document is empty: it has no root element (is the file truncated?)");
    if (s_[pos_] != '<') fail("expected the root element ('<'), found text");
    XmlElement root;
    std::vector<XmlElement*> open;
    if (!read_start_tag(&root)) open.push_back(&root);
    while (!open.empty()) step(&open);
    skip_misc();
    if (!at_end()) fail("content after the end of the root element </" + root.name + ">");
    return root;
  }

 private:
  // One piece of content inside the innermost open element.
  void step(std::vector<XmlElement*>* open) {
    XmlElement* current = open->back();
    if (at_end()) {
      fail("the document ends inside <" + current->name + ">: the file is truncated");
    }
    const char c = s_[pos_];
    if (c == '&') {
      read_reference(&current->text);
    } else if (c != '<') {
      const std::size_t end = s_.find_first_of("<&", pos_);
      const std::size_t stop = end == std::string_view::npos ? s_.size() : end;
      current->text.append(s_.substr(pos_, stop - pos_));
      pos_ = stop;
    } else if (looking_at("</")) {
      const std::size_t start = pos_;
      pos_ += 2;
      const std::string name = read_name("closing tag");
      skip_space();
      expect('>', "closing tag </" + name);
      if (name != current->name) {
        fail_at(start, "closing tag </" + name + "> does not match the open element <" +
                           current->name + ">");
      }
      open->pop_back();
    } else if (looking_at("<!--")) {
      skip_past("-->", "comment");
    } else if (looking_at("<![CDATA[")) {
      const std::size_t start = pos_;
      pos_ += 9;
      const std::size_t end = s_.find("]]>", pos_);
      if (end == std::string_view::npos) fail_at(start, "unterminated CDATA section");
      current->text.append(s_.substr(pos_, end - pos_));
      pos_ = end + 3;
    } else if (looking_at("<?")) {
      skip_past("?>", "processing instruction");
    } else if (looking_at("<!")) {
      fail("unexpected markup declaration inside <" + current->name + ">");
    } else {
      if (open->size() >= kMaxXmlDepth) {
        fail("elements are nested more than " + std::to_string(kMaxXmlDepth) + " levels deep");
      }
      // Only the innermost open element gains a child, so the pointers in `open` (to it and its
      // ancestors) stay valid when its children vector grows.
      current->children.emplace_back();
      XmlElement* child = &current->children.back();
      if (!read_start_tag(child)) open->push_back(child);
    }
  }

  // At '<' of a start tag. Returns true for an empty-element tag (<x/>).
  bool read_start_tag(XmlElement* e) {
    ++pos_;
    e->name = read_name("element name");
    for (;;) {
      const bool had_space = skip_space();
      if (at_end())
        fail("the document ends inside the tag <" + e->name + ">: the file is truncated");
      if (looking_at("/>")) {
        pos_ += 2;
        return true;
      }
      if (s_[pos_] == '>') {
        ++pos_;
        return false;
      }
      if (!had_space) fail("expected whitespace, '>' or '/>' in the tag <" + e->name + ">");
      read_attribute(e);
    }
  }

  void read_attribute(XmlElement* e) {
    const std::size_t start = pos_;
    std::string name = read_name("attribute name");
    if (e->attribute(name) != nullptr) {
      fail_at(start, "attribute '" + name + "' appears twice in <" + e->name + ">");
    }
    skip_space();
    expect('=', "attribute '" + name + "'");
    skip_space();
    if (at_end() || (s_[pos_] != '"' && s_[pos_] != '\'')) {
      fail("expected a quoted value for attribute '" + name + "'");
    }
    const char quote = s_[pos_++];
    std::string value;
    for (;;) {
      if (at_end()) fail_at(start, "unterminated value of attribute '" + name + "'");
      const char c = s_[pos_];
      if (c == quote) break;
      if (c == '<') fail("'<' in the value of attribute '" + name + "'");
      if (c == '&') {
        read_reference(&value);
      } else {
        value.push_back(c);
        ++pos_;
      }
    }
    ++pos_;
    e->attributes.emplace_back(std::move(name), std::move(value));
  }

  // At '&': decodes &lt; &gt; &amp; &quot; &apos; &#N; &#xN;.
  void read_reference(std::string* out) {
    const std::size_t start = pos_;
    const std::size_t semi = s_.find(';', pos_);
    if (semi == std::string_view::npos || semi - pos_ > 12) {
      fail("'&' that does not start an entity reference (write &amp; for '&')");
    }
    const std::string_view ref = s_.substr(pos_ + 1, semi - pos_ - 1);
    pos_ = semi + 1;
    if (ref == "lt") {
      out->push_back('<');
    } else if (ref == "gt") {
      out->push_back('>');
    } else if (ref == "amp") {
      out->push_back('&');
    } else if (ref == "quot") {
      out->push_back('"');
    } else if (ref == "apos") {
      out->push_back('\'');
    } else if (ref.size() > 1 && ref[0] == '#') {
      const bool hex = ref[1] == 'x';
      const std::string_view digits = ref.substr(hex ? 2 : 1);
      std::uint32_t cp = 0;
      bool valid = !digits.empty();
      for (char d : digits) {
        int v = -1;
        if (d >= '0' && d <= '9') v = d - '0';
        if (hex && d >= 'a' && d <= 'f') v = d - 'a' + 10;
        if (hex && d >= 'A' && d <= 'F') v = d - 'A' + 10;
        if (v < 0 || cp > 0x10FFFF) {
          valid = false;
          break;
        }
        cp = cp * (hex ? 16 : 10) + static_cast<std::uint32_t>(v);
      }
      if (!valid || cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        fail_at(start, "invalid character reference '&" + std::string(ref) + ";'");
      }
      append_utf8(out, cp);
    } else {
      fail_at(start, "unknown entity '&" + std::string(ref) + ";'");
    }
  }

  std::string read_name(const char* what) {
    if (at_end() || !is_name_start(s_[pos_])) fail(std::string("expected ") + what);
    const std::size_t start = pos_;
    while (!at_end() && is_name_char(s_[pos_])) ++pos_;
    return std::string(s_.substr(start, pos_ - start));
  }

  // Whitespace, comments, processing instructions and a DOCTYPE before or after the root.
  void skip_misc() {
    for (;;) {
      skip_space();
      if (looking_at("<?")) {
        skip_past("?>", "processing instruction");
      } else if (looking_at("<!--")) {
        skip_past("-->", "comment");
      } else if (looking_at("<!DOCTYPE")) {
        skip_doctype();
      } else {
        return;
      }
    }
  }

  void skip_doctype() {
    const std::size_t start = pos_;
    int brackets = 0;
    char quote = 0;
    for (; !at_end(); ++pos_) {
      const char c = s_[pos_];
      if (quote) {
        if (c == quote) quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '[') {
        ++brackets;
      } else if (c == ']') {
        --brackets;
      } else if (c == '>' && brackets <= 0) {
        ++pos_;
        return;
      }
    }
    fail_at(start, "unterminated DOCTYPE");
  }

  void skip_past(std::string_view terminator, const char* construct) {
    const std::size_t end = s_.find(terminator, pos_);
    if (end == std::string_view::npos) fail(std::string("unterminated ") + construct);
    pos_ = end + terminator.size();
  }

  bool skip_space() {
    const std::size_t start = pos_;
    while (!at_end() && is_space(s_[pos_])) ++pos_;
    return pos_ != start;
  }

  void expect(char c, const std::string& context) {
    if (at_end() || s_[pos_] != c) fail(std::string("expected '") + c + "' after " + context);
    ++pos_;
  }

  [[nodiscard]] bool at_end() const { return pos_ >= s_.size(); }
  [[nodiscard]] bool looking_at(std::string_view p) const {
    return s_.size() - pos_ >= p.size() && s_.substr(pos_, p.size()) == p;
  }

  [[noreturn]] void fail(const std::string& problem) const { fail_at(pos_, problem); }
  [[noreturn]] void fail_at(std::size_t at, const std::string& problem) const {
    std::size_t line = 1;
    std::size_t column = 1;
    for (std::size_t i = 0; i < at && i < s_.size(); ++i) {
      if (s_[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    const bool cut = at >= s_.size() && problem.find("truncated") == std::string::npos;
    throw ToolError("cannot read " + source_ + ": line " + std::to_string(line) + ", column " +
                    std::to_string(column) + ": " + problem +
                    (cut ? " (the document ends there: the file is truncated)" : ""));
  }

  std::string_view s_;
  const std::string& source_;
  std::size_t pos_ = 0;
};

}  // namespace

const XmlElement* XmlElement::child(std::string_view child_name) const {
  for (const auto& c : children) {
    if (c.name == child_name) return &c;
  }
  return nullptr;
}

std::vector<const XmlElement*> XmlElement::children_named(std::string_view child_name) const {
  std::vector<const XmlElement*> out;
  for (const auto& c : children) {
    if (c.name == child_name) out.push_back(&c);
  }
  return out;
}

std::string XmlElement::child_text(std::string_view child_name) const {
  const XmlElement* c = child(child_name);
  return c ? c->trimmed_text() : std::string();
}

std::string XmlElement::trimmed_text() const { return trim(text); }

const std::string* XmlElement::attribute(std::string_view attribute_name) const {
  for (const auto& [k, v] : attributes) {
    if (k == attribute_name) return &v;
  }
  return nullptr;
}

XmlElement parse_xml(std::string_view text, const std::string& source) {
  return Parser(text, source).run();
}

}  // namespace kscope::sanitizer
