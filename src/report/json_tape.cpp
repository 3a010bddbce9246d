#include "report/json_tape.hpp"

#include <charconv>

#include "core/utf8.hpp"

namespace kscope::report {
namespace {

// Deeper values go to nlohmann's parser, which keeps its own stack.
constexpr std::uint32_t kMaxDepth = 256;

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// A key's bucket among 64, for finding a duplicate key without comparing every pair.
unsigned key_bucket(std::string_view key) {
  if (key.empty()) return 0;
  return static_cast<unsigned>(key.size() * 7 + static_cast<unsigned char>(key.front()) * 3 +
                               static_cast<unsigned char>(key.back())) &
         63U;
}

}  // namespace

bool JsonTape::parse(std::string_view text) {
  nodes_.clear();
  unescaped_.clear();
  if (unescaped_.capacity() < text.size()) unescaped_.reserve(text.size());
  p_ = text.data();
  end_ = p_ + text.size();
  space();
  if (!value(0)) return false;
  space();
  return p_ == end_;
}

void JsonTape::space() {
  while (p_ < end_ && is_space(*p_)) ++p_;
}

bool JsonTape::value(std::uint32_t depth) {
  if (p_ == end_ || depth > kMaxDepth) return false;
  const auto literal = [&](std::string_view word, Type type) {
    if (static_cast<std::size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word) {
      return false;
    }
    p_ += word.size();
    Node n;
    n.type = type;
    n.next = size() + 1;
    nodes_.push_back(n);
    return true;
  };
  switch (*p_) {
    case '{':
      return object(depth);
    case '[':
      return array(depth);
    case '"': {
      Node n;
      n.type = Type::kString;
      if (!string(&n.text)) return false;
      n.next = size() + 1;
      nodes_.push_back(n);
      return true;
    }
    case 't':
      return literal("true", Type::kTrue);
    case 'f':
      return literal("false", Type::kFalse);
    case 'n':
      return literal("null", Type::kNull);
    default:
      return number();
  }
}

bool JsonTape::string(std::string_view* out) {
  const char* start = ++p_;  // after the opening quote
  bool wide = false;         // a byte of 0x80 or more: the text must be UTF-8
  while (p_ < end_) {
    const auto c = static_cast<unsigned char>(*p_);
    if (c == '"' || c == '\\' || c < 0x20 || c == 0x7F) break;
    wide |= c >= 0x80;
    ++p_;
  }
  // A control byte is no JSON; DEL is, but no text file (check_text_file) the tree's reader reads.
  if (p_ == end_ || static_cast<unsigned char>(*p_) < 0x20 || *p_ == 0x7F) return false;
  if (*p_ == '"') {
    *out = std::string_view(start, static_cast<std::size_t>(p_ - start));
    ++p_;
    return !wide || is_valid_utf8(*out);
  }
  // Escapes: the text is unescaped into unescaped_, which never reallocates (reserved to the
  // input's size, which no unescaped text exceeds).
  const std::size_t from = unescaped_.size();
  unescaped_.append(start, static_cast<std::size_t>(p_ - start));
  while (true) {
    if (p_ == end_) return false;
    const auto c = static_cast<unsigned char>(*p_);
    if (c == '"') break;
    if (c < 0x20 || c == 0x7F) return false;
    if (c != '\\') {
      wide |= c >= 0x80;
      unescaped_ += static_cast<char>(c);
      ++p_;
      continue;
    }
    if (++p_ == end_) return false;
    const char e = *p_++;
    switch (e) {
      case '"': unescaped_ += '"'; break;
      case '\\': unescaped_ += '\\'; break;
      case '/': unescaped_ += '/'; break;
      case 'b': unescaped_ += '\b'; break;
      case 'f': unescaped_ += '\f'; break;
      case 'n': unescaped_ += '\n'; break;
      case 'r': unescaped_ += '\r'; break;
      case 't': unescaped_ += '\t'; break;
      case 'u': {
        const auto hex4 = [&](std::uint32_t* cp) {
          if (end_ - p_ < 4) return false;
          *cp = 0;
          for (int k = 0; k < 4; ++k) {
            const int h = hex_digit(*p_++);
            if (h < 0) return false;
            *cp = *cp * 16 + static_cast<std::uint32_t>(h);
          }
          return true;
        };
        std::uint32_t cp = 0;
        if (!hex4(&cp)) return false;
        if (cp >= 0xDC00 && cp <= 0xDFFF) return false;  // a low surrogate alone
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          std::uint32_t low = 0;
          if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') return false;
          p_ += 2;
          if (!hex4(&low) || low < 0xDC00 || low > 0xDFFF) return false;
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        append_utf8(unescaped_, cp);
        break;
      }
      default:
        return false;
    }
  }
  ++p_;  // the closing quote
  *out = std::string_view(unescaped_.data() + from, unescaped_.size() - from);
  return !wide || is_valid_utf8(*out);
}

bool JsonTape::number() {
  const char* start = p_;
  const bool negative = *p_ == '-';
  if (negative) ++p_;
  if (p_ == end_) return false;
  if (*p_ == '0') {
    ++p_;
  } else if (*p_ >= '1' && *p_ <= '9') {
    while (p_ < end_ && is_digit(*p_)) ++p_;
  } else {
    return false;
  }
  bool is_float = false;
  if (p_ < end_ && *p_ == '.') {
    ++p_;
    if (p_ == end_ || !is_digit(*p_)) return false;
    while (p_ < end_ && is_digit(*p_)) ++p_;
    is_float = true;
  }
  if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
    ++p_;
    if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
    if (p_ == end_ || !is_digit(*p_)) return false;
    while (p_ < end_ && is_digit(*p_)) ++p_;
    is_float = true;
  }
  Node n;
  n.text = std::string_view(start, static_cast<std::size_t>(p_ - start));
  n.next = size() + 1;
  // As nlohmann: an integer that fits 64 bits is one, anything else a double.
  if (!is_float && negative) {
    const auto r = std::from_chars(start, p_, n.number.i);
    if (r.ec == std::errc() && r.ptr == p_) {
      n.type = Type::kInteger;
      nodes_.push_back(n);
      return true;
    }
  } else if (!is_float) {
    const auto r = std::from_chars(start, p_, n.number.u);
    if (r.ec == std::errc() && r.ptr == p_) {
      n.type = Type::kUnsigned;
      nodes_.push_back(n);
      return true;
    }
  }
  // A double beyond the range (nlohmann: overflow is an error, underflow a zero) goes to the tree.
  const auto r = std::from_chars(start, p_, n.number.d);
  if (r.ec != std::errc() || r.ptr != p_) return false;
  n.type = Type::kFloat;
  nodes_.push_back(n);
  return true;
}

bool JsonTape::object(std::uint32_t depth) {
  const std::uint32_t at = size();
  Node o;
  o.type = Type::kObject;
  nodes_.push_back(o);
  ++p_;
  space();
  std::uint32_t count = 0;
  std::uint64_t buckets = 0;
  if (p_ < end_ && *p_ == '}') {
    ++p_;
  } else {
    while (true) {
      if (p_ == end_ || *p_ != '"') return false;
      Node key;
      key.type = Type::kKey;
      if (!string(&key.text)) return false;
      // nlohmann keeps a duplicate key's last value; readers here would find its first.
      const std::uint64_t bit = std::uint64_t{1} << key_bucket(key.text);
      if (buckets & bit) {
        for (std::uint32_t k = at + 1; k < size(); k = nodes_[k].next) {
          if (nodes_[k].text == key.text) return false;
        }
      }
      buckets |= bit;
      const std::uint32_t key_at = size();
      nodes_.push_back(key);
      space();
      if (p_ == end_ || *p_ != ':') return false;
      ++p_;
      space();
      if (!value(depth + 1)) return false;
      nodes_[key_at].next = size();
      ++count;
      bool more = false;
      if (!after_item('}', &more)) return false;
      if (!more) break;
    }
  }
  nodes_[at].count = count;
  nodes_[at].next = size();
  nodes_[at].hint = at + 1;
  return true;
}

bool JsonTape::after_item(char close, bool* more) {
  space();
  if (p_ == end_) return false;
  *more = *p_ == ',';
  if (!*more && *p_ != close) return false;
  ++p_;
  space();
  return true;
}

bool JsonTape::array(std::uint32_t depth) {
  const std::uint32_t at = size();
  Node a;
  a.type = Type::kArray;
  nodes_.push_back(a);
  ++p_;
  space();
  std::uint32_t count = 0;
  if (p_ < end_ && *p_ == ']') {
    ++p_;
  } else {
    while (true) {
      if (!value(depth + 1)) return false;
      ++count;
      bool more = false;
      if (!after_item(']', &more)) return false;
      if (!more) break;
    }
  }
  nodes_[at].count = count;
  nodes_[at].next = size();
  return true;
}

std::optional<JsonNumber> TapeField::number() const {
  JsonNumber x;
  switch (n().type) {
    case JsonTape::Type::kUnsigned:
      x.kind = JsonNumber::Kind::kUnsigned;
      x.u = n().number.u;
      return x;
    case JsonTape::Type::kInteger:
      x.kind = JsonNumber::Kind::kInteger;
      x.i = n().number.i;
      return x;
    case JsonTape::Type::kFloat:
      x.d = n().number.d;
      return x;
    default:
      return std::nullopt;
  }
}

std::string_view TapeField::text() const {
  if (!is_string()) throw TapeMiss{};
  return n().text;
}

std::optional<std::uint32_t> TapeField::member(std::string_view key) const {
  const JsonTape::Node& o = n();
  if (o.type != JsonTape::Type::kObject) throw TapeMiss{};
  if (o.count == 0) return std::nullopt;
  // Readers ask for members in the order they are written: the search starts after the last
  // one found and wraps around.
  std::uint32_t k = o.hint;
  for (std::uint32_t seen = 0; seen < o.count; ++seen) {
    const JsonTape::Node& candidate = tape_->node(k);
    const std::uint32_t after = candidate.next < o.next ? candidate.next : node_ + 1;
    if (candidate.text == key) {
      o.hint = after;
      return k + 1;
    }
    k = after;
  }
  return std::nullopt;
}

TapeField TapeField::at(const char* key) const {
  const auto m = member(key);
  if (!m) throw TapeMiss{};
  return TapeField(*tape_, *m);
}

std::optional<TapeField> TapeField::find(const char* key) const {
  const auto m = member(key);
  if (!m || tape_->node(*m).type == JsonTape::Type::kNull) return std::nullopt;
  return TapeField(*tape_, *m);
}

TapeField TapeField::element(std::size_t i) const {
  if (!is_array() || i >= n().count) throw TapeMiss{};
  std::uint32_t e = node_ + 1;
  for (std::size_t k = 0; k < i; ++k) e = tape_->node(e).next;
  return TapeField(*tape_, e);
}

std::vector<TapeField> TapeField::items() const {
  if (!is_array()) throw TapeMiss{};
  std::vector<TapeField> out;
  out.reserve(n().count);
  for (std::uint32_t e = node_ + 1; e < n().next; e = tape_->node(e).next) out.emplace_back(*tape_, e);
  return out;
}

Json TapeField::tree() const {
  switch (n().type) {
    case JsonTape::Type::kNull:
      return Json(nullptr);
    case JsonTape::Type::kFalse:
      return Json(false);
    case JsonTape::Type::kTrue:
      return Json(true);
    case JsonTape::Type::kUnsigned:
      return Json(n().number.u);
    case JsonTape::Type::kInteger:
      return Json(n().number.i);
    case JsonTape::Type::kFloat:
      return Json(n().number.d);
    case JsonTape::Type::kString:
      return Json(std::string(n().text));
    case JsonTape::Type::kArray: {
      Json out = Json::array();
      for (const auto& item : items()) out.push_back(item.tree());
      return out;
    }
    default: {
      Json out = Json::object();
      for (std::uint32_t k = node_ + 1; k < n().next; k = tape_->node(k).next) {
        out[std::string(tape_->node(k).text)] = TapeField(*tape_, k + 1).tree();
      }
      return out;
    }
  }
}

}  // namespace kscope::report
