#include "collect/sanitizer/xml_reader.hpp"

#include <expat.h>

#include <algorithm>
#include <memory>
#include <optional>

#include "collect/sanitizer/xml_error_text.hpp"
#include "kscope/errors.hpp"

namespace kscope::sanitizer {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string trim(std::string_view s) {
  std::size_t b = 0;
  std::size_t e = s.size();
  while (b < e && is_space(s[b])) ++b;
  while (e > b && is_space(s[e - 1])) --e;
  return std::string(s.substr(b, e - b));
}

// expat is fed at most this much per XML_Parse call (its length is an int).
constexpr std::size_t kChunk = std::size_t{1} << 30;

struct ParserDeleter {
  void operator()(XML_ParserStruct* p) const { XML_ParserFree(p); }
};

// The tree being built from expat's callbacks, and the first problem a callback found.
class TreeBuilder {
 public:
  TreeBuilder(std::string_view text, XML_Parser parser) : text_(text), parser_(parser) {
    XML_SetUserData(parser, this);
    XML_SetElementHandler(parser, &TreeBuilder::on_start, &TreeBuilder::on_end);
    XML_SetCharacterDataHandler(parser, &TreeBuilder::on_text);
    // With a default handler (and not XML_SetDefaultHandlerExpand) expat does not expand
    // entities declared in a DOCTYPE: a reference to one reaches on_other as "&name;" and is
    // refused like any other entity that is not predefined.
    XML_SetDefaultHandler(parser, &TreeBuilder::on_other);
    XML_SetSkippedEntityHandler(parser, &TreeBuilder::on_skipped_entity);
    // expat expands them in attribute values whatever the handlers: once a DOCTYPE declares
    // one, on_start looks for references in the tag's own text.
    XML_SetEntityDeclHandler(parser, &TreeBuilder::on_entity_declaration);
  }

  [[nodiscard]] bool has_root() const { return has_root_; }
  [[nodiscard]] const std::string& root_name() const { return root_.name; }
  [[nodiscard]] const std::optional<XmlFailure>& failure() const { return failure_; }
  [[nodiscard]] std::vector<std::string> open_names() const {
    std::vector<std::string> names;
    names.reserve(open_.size());
    for (const XmlElement* e : open_) names.push_back(e->name);
    return names;
  }
  XmlElement take_root() { return std::move(root_); }

 private:
  static TreeBuilder& self(void* data) { return *static_cast<TreeBuilder*>(data); }

  static void on_start(void* data, const XML_Char* name, const XML_Char** attributes) {
    TreeBuilder& b = self(data);
    if (b.open_.size() >= kMaxXmlDepth) {
      b.stop("elements are nested more than " + std::to_string(kMaxXmlDepth) + " levels deep");
      return;
    }
    if (b.entities_declared_) {
      const auto at = static_cast<std::size_t>(XML_GetCurrentByteIndex(b.parser_));
      const auto n = static_cast<std::size_t>(XML_GetCurrentByteCount(b.parser_));
      if (auto f = unknown_reference(b.text_, at, at + n)) {
        b.stop(std::move(*f));
        return;
      }
    }
    XmlElement* e = nullptr;
    if (b.open_.empty()) {
      b.has_root_ = true;
      e = &b.root_;
    } else {
      // Only the innermost open element gains a child, so the pointers in open_ (to it and its
      // ancestors) stay valid when its children vector grows.
      e = &b.open_.back()->children.emplace_back();
    }
    e->name = name;
    for (const XML_Char** a = attributes; a[0] != nullptr; a += 2) {
      e->attributes.emplace_back(a[0], a[1]);
    }
    b.open_.push_back(e);
  }

  static void on_end(void* data, const XML_Char* /*name*/) { self(data).open_.pop_back(); }

  static void on_text(void* data, const XML_Char* s, int len) {
    TreeBuilder& b = self(data);
    if (!b.open_.empty()) b.open_.back()->text.append(s, static_cast<std::size_t>(len));
  }

  static void on_other(void* data, const XML_Char* s, int len) {
    TreeBuilder& b = self(data);
    if (len > 0 && s[0] == '&' && !b.open_.empty()) {
      b.stop("unknown entity '" + std::string(s, static_cast<std::size_t>(len)) + "'");
    }
  }

  static void on_skipped_entity(void* data, const XML_Char* name, int is_parameter_entity) {
    self(data).stop(std::string("unknown entity '") + (is_parameter_entity ? "%" : "&") + name +
                    ";'");
  }

  static void on_entity_declaration(void* data, const XML_Char* /*name*/,
                                    int is_parameter_entity, const XML_Char* /*value*/,
                                    int /*value_length*/, const XML_Char* /*base*/,
                                    const XML_Char* /*system_id*/, const XML_Char* /*public_id*/,
                                    const XML_Char* /*notation_name*/) {
    if (!is_parameter_entity) self(data).entities_declared_ = true;
  }

  void stop(std::string problem) {
    stop(XmlFailure{
        static_cast<std::size_t>(std::max<XML_Index>(0, XML_GetCurrentByteIndex(parser_))),
        std::move(problem)});
  }

  void stop(XmlFailure failure) {
    if (failure_) return;
    failure_ = std::move(failure);
    XML_StopParser(parser_, XML_FALSE);
  }

  std::string_view text_;
  XML_Parser parser_;
  XmlElement root_;
  bool has_root_ = false;
  bool entities_declared_ = false;
  std::vector<XmlElement*> open_;
  std::optional<XmlFailure> failure_;
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
  // The text is UTF-8 whatever its declaration says (the caller escapes bytes that are not).
  const std::unique_ptr<XML_ParserStruct, ParserDeleter> parser(XML_ParserCreate("UTF-8"));
  if (!parser) throw ToolError("cannot read " + source + ": out of memory for the XML parser");
  TreeBuilder builder(text, parser.get());
  std::size_t done = 0;
  bool ok = true;
  do {
    const std::size_t n = std::min(kChunk, text.size() - done);
    const bool last = done + n == text.size();
    ok = XML_Parse(parser.get(), text.data() + done, static_cast<int>(n), last ? 1 : 0) ==
         XML_STATUS_OK;
    done += n;
  } while (ok && done < text.size());
  if (ok) return builder.take_root();
  XmlFailure failure;
  if (builder.failure()) {
    failure = *builder.failure();
  } else {
    const XML_Index at = XML_GetCurrentByteIndex(parser.get());
    XmlErrorContext context{text, static_cast<std::size_t>(std::max<XML_Index>(0, at)),
                            builder.has_root(), builder.root_name(),
                            builder.open_names()};
    failure = describe_xml_error(XML_GetErrorCode(parser.get()), context);
  }
  throw ToolError(xml_error_message(text, source, failure));
}

}  // namespace kscope::sanitizer
