// NVTX cells exactly as ncu 2025.3.1 prints them (from the nested fixture), plus payloads.
#include "collect/ncu/nvtx_cells.hpp"

#include <gtest/gtest.h>

#include "kscope/errors.hpp"

namespace kscope::ncu {
namespace {

TEST(NvtxCellsTest, PushPopStackBottomFirst) {
  const auto r = parse_push_pop_cell(
      "1255  \"bench:outer:none:none:none:none:ASCII:outer\"  "
      "\"bench:inner:none:none:none:none:ASCII:inner\" ");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].domain, "bench");
  EXPECT_EQ(r[0].name, "outer");
  EXPECT_EQ(r[1].name, "inner");
  EXPECT_EQ(r[0].payload_type, "none");
  EXPECT_FALSE(r[0].payload.has_value());
  EXPECT_EQ(r[0].id, "");
}

TEST(NvtxCellsTest, DefaultDomainAndEmptyCells) {
  const auto r = parse_push_pop_cell("1255  \"<default domain>:dflt:none:none:none:none:none:none\" ");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].domain, kDefaultNvtxDomain);
  EXPECT_EQ(r[0].name, "dflt");
  EXPECT_TRUE(parse_push_pop_cell("").empty());
  EXPECT_TRUE(parse_start_end_cell("").empty());
}

TEST(NvtxCellsTest, StartEndRangeWithIdAndPayload) {
  auto r = parse_start_end_cell(" \"0:bench:se:none:none:none:none:ASCII:se\" ");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].id, "0");
  EXPECT_EQ(r[0].domain, "bench");
  EXPECT_EQ(r[0].name, "se");

  r = parse_start_end_cell(" \"7:kscope:vadd:UINT64:9223372041149743105:none:none:ASCII:vadd\" ");
  ASSERT_TRUE(r[0].payload.has_value());
  EXPECT_EQ(*r[0].payload, (1ull << 63) | (1ull << 32) | 1ull);
  EXPECT_EQ(r[0].payload_type, "UINT64");
}

TEST(NvtxCellsTest, PayloadSpellings) {
  auto payload_of = [](const std::string& type, const std::string& value) {
    return parse_start_end_cell("\"1:kscope:a:" + type + ":" + value + ":none:none:ASCII:a\"")[0].payload;
  };
  EXPECT_EQ(payload_of("UNSIGNED_INT64", "0x8000000100000002"), 0x8000000100000002ull);
  EXPECT_EQ(payload_of("INT64", "-9223372036854775808"), 1ull << 63);
  EXPECT_EQ(payload_of("UINT64", "12,345"), 12345ull);
  EXPECT_FALSE(payload_of("DOUBLE", "1.5").has_value());
  EXPECT_FALSE(payload_of("none", "123").has_value());
}

TEST(NvtxCellsTest, RangeNamesWithColons) {
  const auto r = parse_start_end_cell("\"3:kscope:ns::gemm:bf16:none:none:none:none:ASCII:ns::gemm:bf16\"");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].domain, "kscope");
  EXPECT_EQ(r[0].name, "ns::gemm:bf16");
  EXPECT_EQ(r[0].payload_type, "none");
}

// ncu writes a '"' of a range name as it is (issue 38: such names could not be imported).
TEST(NvtxCellsTest, RangeNamesWithQuotes) {
  const auto se = parse_start_end_cell(
      " \"4:kscope:say \"hi\":none:none:none:none:ASCII:say \"hi\"\" ");
  ASSERT_EQ(se.size(), 1u);
  EXPECT_EQ(se[0].id, "4");
  EXPECT_EQ(se[0].name, "say \"hi\"");
  EXPECT_EQ(se[0].payload_type, "none");
  const auto pp = parse_push_pop_cell(
      "1255  \"bench:\"q:none:none:none:none:ASCII:\"q\"  \"bench:x\":none:none:none:none:ASCII:x\"\" "
      " \"bench:a\" \"b:none:none:none:none:ASCII:a\" \"b\" ");
  ASSERT_EQ(pp.size(), 3u);
  EXPECT_EQ(pp[0].name, "\"q");
  EXPECT_EQ(pp[1].name, "x\"");
  EXPECT_EQ(pp[2].name, "a\" \"b");  // a '"' before a space and a '"': the fields decide
  EXPECT_EQ(nvtx_label({}, pp, "kscope"), "bench@\"q/x\"/a\" \"b/");
}

TEST(NvtxCellsTest, MalformedEntryIsAnErrorQuotingIt) {
  try {
    (void)parse_start_end_cell("\"0:bench:se\"");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("0:bench:se"), std::string::npos);
  }
  EXPECT_THROW((void)parse_push_pop_cell("12 \"bench:outer:none"), Error);
}

TEST(NvtxCellsTest, LabelsFollowNcuFilterGrammar) {
  const auto outer_inner = parse_push_pop_cell(
      "1 \"bench:outer:none:none:none:none:ASCII:outer\" \"bench:inner:none:none:none:none:ASCII:inner\"");
  const auto dflt = parse_push_pop_cell("1 \"<default domain>:dflt:none:none:none:none:none:none\"");
  const auto se = parse_start_end_cell("\"0:bench:se:none:none:none:none:ASCII:se\"");
  const auto ours = parse_start_end_cell("\"0:kscope:vadd:none:none:none:none:ASCII:vadd\"");
  EXPECT_EQ(nvtx_label({}, outer_inner, "kscope"), "bench@outer/inner/");
  EXPECT_EQ(nvtx_label({}, dflt, "kscope"), "dflt/");
  EXPECT_EQ(nvtx_label(se, {}, "kscope"), "bench@se");
  EXPECT_EQ(nvtx_label(ours, {}, "kscope"), "vadd");
  EXPECT_EQ(nvtx_label(se, outer_inner, "kscope"), "bench@se | bench@outer/inner/");
  EXPECT_EQ(nvtx_label({}, {}, "kscope"), "");
}

}  // namespace
}  // namespace kscope::ncu
