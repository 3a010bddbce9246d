#include "core/text_file.hpp"

#include <algorithm>

#include "kscope/errors.hpp"

namespace kscope {

void check_text_file(std::string_view text, const std::string& path, const std::string& expected) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; };
  if (std::all_of(text.begin(), text.end(), space)) {
    throw FileFormatError("'" + path + "' is empty (" +
                          (text.empty() ? std::string("0 bytes") : "only white space") +
                          "): expected " + expected);
  }
  // Terminal output mixed into a CSV (ncu ... > out.csv 2>&1) may hold \b, \v and ESC.
  const auto binary = std::find_if(text.begin(), text.end(), [&](char c) {
    const auto b = static_cast<unsigned char>(c);
    return (b < 0x20 && !space(c) && c != '\b' && c != '\v' && c != '\x1b') || b == 0x7F;
  });
  if (binary == text.end()) return;
  static constexpr char kHex[] = "0123456789ABCDEF";
  const auto b = static_cast<unsigned char>(*binary);
  throw FileFormatError("'" + path + "' is not a text file (byte \\x" + kHex[b >> 4] +
                        kHex[b & 0xF] + " at offset " + std::to_string(binary - text.begin()) +
                        "): expected " + expected);
}

}  // namespace kscope
