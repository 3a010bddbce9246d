#include "report/rle_hybrid.hpp"

#include <algorithm>
#include <cstdint>

#include "kscope/errors.hpp"

namespace kscope::report::parquet {
namespace {

void varint(std::uint64_t v, std::string& out) {
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7F) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
}

std::size_t run_at(const std::vector<std::uint32_t>& v, std::size_t i) {
  std::size_t j = i + 1;
  while (j < v.size() && v[j] == v[i]) ++j;
  return j - i;
}

}  // namespace

int bit_width_for(std::uint32_t max_value) {
  int w = 1;
  while (w < 32 && (max_value >> w) != 0) ++w;
  return w;
}

void encode_hybrid(const std::vector<std::uint32_t>& values, int bit_width, std::string& out) {
  const std::size_t value_bytes = (static_cast<std::size_t>(bit_width) + 7) / 8;
  std::size_t i = 0;
  const std::size_t n = values.size();
  while (i < n) {
    const std::size_t run = run_at(values, i);
    if (run >= 8) {
      varint(static_cast<std::uint64_t>(run) << 1, out);
      for (std::size_t b = 0; b < value_bytes; ++b) {
        out += static_cast<char>((values[i] >> (8 * b)) & 0xFF);
      }
      i += run;
      continue;
    }
    // Literal groups of 8 until a repeat of 8 or more starts at a group boundary.
    std::size_t j = i;
    do {
      j += 8;
    } while (j < n && run_at(values, j) < 8);
    const std::size_t groups = (j - i) / 8;
    varint((static_cast<std::uint64_t>(groups) << 1) | 1, out);
    std::uint64_t acc = 0;
    int bits = 0;
    for (std::size_t k = i; k < j; ++k) {
      acc |= static_cast<std::uint64_t>(k < n ? values[k] : 0) << bits;
      bits += bit_width;
      while (bits >= 8) {
        out += static_cast<char>(acc & 0xFF);
        acc >>= 8;
        bits -= 8;
      }
    }
    i = j;  // groups * 8 * bit_width bits: whole bytes, nothing left in acc
  }
}

void decode_hybrid(const char* data, std::size_t size, int bit_width, std::size_t count,
                   std::uint32_t limit, std::vector<std::uint32_t>& out) {
  out.clear();
  out.reserve(count);
  const auto* p = reinterpret_cast<const std::uint8_t*>(data);
  const auto* end = p + size;
  auto need = [&](std::size_t bytes) {
    if (static_cast<std::size_t>(end - p) < bytes) {
      throw FileFormatError("RLE/bit-packed data ends early");
    }
  };
  auto check = [&](std::uint32_t v) {
    if (v >= limit) {
      throw FileFormatError("RLE/bit-packed value " + std::to_string(v) + " out of range (below " +
                            std::to_string(limit) + " expected)");
    }
  };
  const std::size_t value_bytes = (static_cast<std::size_t>(bit_width) + 7) / 8;
  while (out.size() < count) {
    std::uint64_t header = 0;
    for (int shift = 0;; shift += 7) {
      need(1);
      if (shift > 63) throw FileFormatError("RLE/bit-packed run header too long");
      header |= static_cast<std::uint64_t>(*p & 0x7F) << shift;
      if (!(*p++ & 0x80)) break;
    }
    if (header & 1) {
      const std::uint64_t values = (header >> 1) * 8;
      // The bytes of the values still wanted (a last group may lack its padding).
      const std::uint64_t wanted = std::min<std::uint64_t>(values, count - out.size());
      need(static_cast<std::size_t>((wanted * static_cast<std::uint64_t>(bit_width) + 7) / 8));
      std::uint64_t acc = 0;
      int bits = 0;
      const std::uint32_t mask =
          bit_width == 32 ? 0xFFFFFFFFu : ((std::uint32_t{1} << bit_width) - 1);
      for (std::uint64_t k = 0; k < values && out.size() < count; ++k) {
        while (bits < bit_width) {
          acc |= static_cast<std::uint64_t>(*p++) << bits;
          bits += 8;
        }
        const auto v = static_cast<std::uint32_t>(acc & mask);
        acc >>= bit_width;
        bits -= bit_width;
        check(v);
        out.push_back(v);
      }
    } else {
      const std::uint64_t run = header >> 1;
      need(value_bytes);
      std::uint32_t v = 0;
      for (std::size_t b = 0; b < value_bytes; ++b) v |= static_cast<std::uint32_t>(*p++) << (8 * b);
      check(v);
      // A run past the page's values (a writer's padding) stops at them.
      out.insert(out.end(), static_cast<std::size_t>(std::min<std::uint64_t>(run, count - out.size())), v);
    }
  }
}

}  // namespace kscope::report::parquet
