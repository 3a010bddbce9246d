#include "report/streamed_json.hpp"

#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace kscope::report {
namespace {

constexpr std::size_t kChunkBytes = std::size_t{4} << 20;

// Which bytes each scan stops at.
struct Stops {
  bool outside[256] = {};  // outside strings: a string's start, brackets
  bool inside[256] = {};   // inside a string: its end, an escape
  bool after[256] = {};    // after a number or literal: what may follow it
  Stops() {
    for (const unsigned char c : std::string_view("\"[]{}")) outside[c] = true;
    inside[static_cast<unsigned char>('"')] = inside[static_cast<unsigned char>('\\')] = true;
    for (const unsigned char c : std::string_view(",]} \t\n\r")) after[c] = true;
  }
};
const Stops kStops;

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// Bit i: the parity of the bits 0..i of `x` (set inside a string when `x` marks its quotes).
std::uint64_t prefix_xor(std::uint64_t x) {
  for (int shift = 1; shift < 64; shift *= 2) x ^= x << shift;
  return x;
}

// Where 64 bytes hold the bytes a scan of a container stops at, one bit per byte.
struct Block {
  std::uint64_t quotes = 0;
  std::uint64_t backslashes = 0;
  std::uint64_t opening = 0;  // { and [
  std::uint64_t closing = 0;  // } and ]
};

Block block(const char* p) {
  Block b;
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i lower = _mm_set1_epi8(0x20);  // [ ] become { }
  const __m128i open = _mm_set1_epi8('{');
  const __m128i close = _mm_set1_epi8('}');
  for (int i = 0; i < 4; ++i) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
    const __m128i folded = _mm_or_si128(x, lower);
    const auto bits = [&](__m128i eq) {
      return static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm_movemask_epi8(eq)) & 0xFFFFU)
             << (16 * i);
    };
    b.quotes |= bits(_mm_cmpeq_epi8(x, quote));
    b.backslashes |= bits(_mm_cmpeq_epi8(x, backslash));
    b.opening |= bits(_mm_cmpeq_epi8(folded, open));
    b.closing |= bits(_mm_cmpeq_epi8(folded, close));
  }
#else
  for (int i = 0; i < 64; ++i) {
    const std::uint64_t bit = std::uint64_t{1} << i;
    switch (p[i]) {
      case '"': b.quotes |= bit; break;
      case '\\': b.backslashes |= bit; break;
      case '{': case '[': b.opening |= bit; break;
      case '}': case ']': b.closing |= bit; break;
      default: break;
    }
  }
#endif
  return b;
}
unsigned char byte(char c) { return static_cast<unsigned char>(c); }

}  // namespace

bool StreamedJson::fill(std::size_t keep) {
  if (buffer_.empty()) buffer_.resize(kChunkBytes);
  // The bytes from `keep` on move to the front (pos_ is never before them).
  std::memmove(&buffer_[0], buffer_.data() + keep, len_ - keep);
  len_ -= keep;
  pos_ -= keep;
  if (len_ == buffer_.size()) buffer_.resize(2 * buffer_.size());  // one value longer than a chunk
  const std::size_t n = std::fread(&buffer_[len_], 1, buffer_.size() - len_, file_);
  len_ += n;
  return n > 0;
}

void StreamedJson::space() {
  while (true) {
    while (pos_ < len_ && is_space(buffer_[pos_])) ++pos_;
    if (pos_ < len_ || !fill(pos_)) return;
  }
}

bool StreamedJson::take(char c) {
  space();
  if (pos_ == len_ || buffer_[pos_] != c) return false;
  ++pos_;
  return true;
}

bool StreamedJson::next_is(char c) {
  space();
  return pos_ < len_ && buffer_[pos_] == c;
}

bool StreamedJson::at_end() {
  space();
  return pos_ == len_;
}

bool StreamedJson::key(std::string* out) {
  space();
  if (pos_ == len_ || buffer_[pos_] != '"') return false;
  while (true) {
    const char* begin = buffer_.data() + pos_ + 1;
    const char* end = buffer_.data() + len_;
    const char* q = begin;
    while (q < end && *q != '"' && *q != '\\' && byte(*q) >= 0x20 && byte(*q) < 0x7F) ++q;
    if (q < end) {
      if (*q != '"') return false;  // escapes, control or non-ASCII bytes: for the tree's reader
      out->assign(begin, static_cast<std::size_t>(q - begin));
      pos_ = static_cast<std::size_t>(q + 1 - buffer_.data());
      return take(':');
    }
    if (!fill(pos_)) return false;
  }
}

const char* StreamedJson::scan(const char* p, const char* end) {
  if (scalar_) {
    while (p < end && !kStops.after[byte(*p)]) ++p;
    return p < end ? p : nullptr;
  }
  while (p < end) {
    // 64 bytes at a time while no escape is pending: most of a big value is rows between its
    // brackets (2-4x faster than byte by byte).
    if (!escaped_ && container_ && end - p >= 64) {
      const Block b = block(p);
      if (b.backslashes == 0) {
        // Bytes inside strings: between a quote and the next (the opening quote counts in).
        std::uint64_t inside = prefix_xor(b.quotes);
        if (in_string_) inside = ~inside;
        std::uint64_t brackets = (b.opening | b.closing) & ~inside;
        while (brackets != 0) {
          const int at = __builtin_ctzll(brackets);
          if ((b.opening >> at) & 1U) {
            ++depth_;
          } else if (--depth_ <= 0) {
            in_string_ = false;
            return p + at + 1;
          }
          brackets &= brackets - 1;
        }
        in_string_ = (inside >> 63) & 1U;
        p += 64;
        continue;
      }
    }
    if (in_string_) {
      if (escaped_) {
        escaped_ = false;
        ++p;
        continue;
      }
      while (p < end && !kStops.inside[byte(*p)]) ++p;
      if (p == end) return nullptr;
      if (*p++ == '\\') {
        escaped_ = true;
        continue;
      }
      in_string_ = false;
      if (depth_ == 0) return p;
      continue;
    }
    while (p < end && !kStops.outside[byte(*p)]) ++p;
    if (p == end) return nullptr;
    const char c = *p++;
    if (c == '"') {
      in_string_ = true;
    } else if (c == '{' || c == '[') {
      ++depth_;
    } else if (--depth_ <= 0) {
      return p;
    }
  }
  return nullptr;
}

void StreamedJson::begin(char first) {
  scalar_ = first != '{' && first != '[' && first != '"';
  container_ = first == '{' || first == '[';
  depth_ = 0;
  in_string_ = false;
  escaped_ = false;
}

bool StreamedJson::pass(std::string_view* text) {
  space();
  if (pos_ == len_) return false;
  begin(buffer_[pos_]);
  std::size_t scanned = pos_;
  while (true) {
    const char* base = buffer_.data();
    if (const char* end = scan(base + scanned, base + len_)) {
      const std::size_t start = pos_;
      pos_ = static_cast<std::size_t>(end - base);
      if (text) *text = std::string_view(base + start, pos_ - start);
      return true;
    }
    if (!text) pos_ = len_;  // skipped: none of its bytes stays
    scanned = len_ - pos_;   // the bytes of the value scanned, which fill() moves to the front
    if (!fill(pos_)) {
      if (!scalar_) return false;
      if (text) *text = std::string_view(buffer_.data() + pos_, len_ - pos_);  // a number at the end
      pos_ = len_;
      return true;
    }
  }
}

bool StreamedJson::value(std::string_view* text) { return pass(text); }

bool StreamedJson::skip() { return pass(nullptr); }

}  // namespace kscope::report
