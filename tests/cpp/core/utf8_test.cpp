// Text that is not UTF-8 is carried with "\xNN" escapes (issue 15, defect 4).
#include "core/utf8.hpp"

#include <gtest/gtest.h>

namespace kscope {
namespace {

TEST(Utf8Test, WellFormedTextIsUnchanged) {
  for (const char* text : {"", "vadd", "gr\xC3\xBC\xC3\x9F", "\xE2\x82\xAC", "\xF0\x9F\x98\x80",
                           "\xF4\x8F\xBF\xBF"}) {
    EXPECT_TRUE(is_valid_utf8(text)) << text;
    EXPECT_EQ(escape_invalid_utf8(text), text);
  }
}

TEST(Utf8Test, EveryBadByteBecomesAnEscape) {
  EXPECT_EQ(escape_invalid_utf8("k\xFFname"), "k\\xFFname");
  EXPECT_EQ(escape_invalid_utf8("caf\xE9"), "caf\\xE9");               // Latin-1
  EXPECT_EQ(escape_invalid_utf8("\xC0\xAF"), "\\xC0\\xAF");            // overlong '/'
  EXPECT_EQ(escape_invalid_utf8("\xE0\x80\xAF"), "\\xE0\\x80\\xAF");   // overlong, 3 bytes
  EXPECT_EQ(escape_invalid_utf8("\xED\xA0\x80"), "\\xED\\xA0\\x80");   // surrogate U+D800
  EXPECT_EQ(escape_invalid_utf8("\xF4\x90\x80\x80"), "\\xF4\\x90\\x80\\x80");  // > U+10FFFF
  EXPECT_EQ(escape_invalid_utf8("\xE2\x82"), "\\xE2\\x82");            // cut sequence
  EXPECT_EQ(escape_invalid_utf8("\xE2\x82x\xC3\xBC"), "\\xE2\\x82x\xC3\xBC");  // valid part kept
  EXPECT_FALSE(is_valid_utf8("\x80"));
  EXPECT_TRUE(is_valid_utf8(escape_invalid_utf8("\x80\xFE\xFF")));
}

}  // namespace
}  // namespace kscope
