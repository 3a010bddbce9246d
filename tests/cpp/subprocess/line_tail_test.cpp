#include "subprocess/line_tail.hpp"

#include <gtest/gtest.h>

namespace kscope::subprocess {
namespace {

TEST(LineTailTest, KeepsOnlyTheLastLines) {
  LineTail tail(2);
  tail.append("one\ntwo\nthree\n");
  EXPECT_EQ(tail.lines(), (std::vector<std::string>{"two", "three"}));
}

TEST(LineTailTest, JoinsLinesSplitAcrossChunks) {
  LineTail tail(5);
  tail.append("hel");
  tail.append("lo\nwor");
  tail.append("ld\r\n");
  EXPECT_EQ(tail.lines(), (std::vector<std::string>{"hello", "world"}));
}

TEST(LineTailTest, UnfinishedLastLineCountsAsALine) {
  LineTail tail(2);
  tail.append("a\nb\nc");
  EXPECT_EQ(tail.lines(), (std::vector<std::string>{"b", "c"}));
}

TEST(LineTailTest, EmptyStreamHasNoLines) { EXPECT_TRUE(LineTail(3).lines().empty()); }

}  // namespace
}  // namespace kscope::subprocess
