#include "collect/ncu/csv_records.hpp"

#include <gtest/gtest.h>

#include "kscope/errors.hpp"

namespace kscope::ncu {
namespace {

std::vector<std::vector<std::string>> cells(const std::string& text) {
  std::vector<std::vector<std::string>> out;
  for (auto& r : read_csv_records(text, "t.csv")) out.push_back(r.cells);
  return out;
}

TEST(CsvRecordsTest, QuotedCellsWithCommasDoubledQuotesAndNewlines) {
  const auto r = cells("\"a\",\"1,980,000\",\"x \"\"q\"\" y\",\"two\nlines\",plain\n");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0], (std::vector<std::string>{"a", "1,980,000", "x \"q\" y", "two\nlines", "plain"}));
}

TEST(CsvRecordsTest, ToolLinesBlankLinesAndCrlfAreSkipped) {
  const auto recs = read_csv_records(
      "==WARNING== Note: Running with unmodified GPU clocks.\r\n==PROF== Connected\n\n"
      "\"ID\",\"x\"\r\n\"\",\"ns\"\r\n", "t.csv");
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[0].cells, (std::vector<std::string>{"ID", "x"}));
  EXPECT_EQ(recs[0].line, 4u);
  EXPECT_EQ(recs[1].cells, (std::vector<std::string>{"", "ns"}));
}

TEST(CsvRecordsTest, EmptyCellsAndLastLineWithoutNewline) {
  EXPECT_EQ(cells(",\"\",x"), (std::vector<std::vector<std::string>>{{"", "", "x"}}));
  EXPECT_TRUE(cells("").empty());
}

TEST(CsvRecordsTest, UnclosedQuoteIsATruncatedFile) {
  try {
    (void)read_csv_records("\"ID\",\"x\"\n\"0\",\"cut he", "t.csv");
    FAIL();
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'t.csv' line 2"), std::string::npos);
    EXPECT_NE(what.find("truncated"), std::string::npos);
  }
}

}  // namespace
}  // namespace kscope::ncu
