// The "did you mean" ranking: edit distance and closest names.
#include <gtest/gtest.h>

#include "collect/cupti/metric_suggestions.hpp"

namespace kscope::cupti {
namespace {

TEST(MetricSuggestionsTest, EditDistanceCountsEditsAndSwaps) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("dram__bytes_read", "dram__bytes_raed"), 1u);  // adjacent swap
  EXPECT_EQ(edit_distance("dram__byte_read", "dram__bytes_read"), 1u);
}

TEST(MetricSuggestionsTest, ClosestFirstTiesByName) {
  const std::vector<std::string> names = {"dram__bytes_write", "dram__bytes_read", "dram__bytes",
                                          "lts__t_bytes"};
  const auto s = closest_names("dram__byte_read", names, 2);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0], "dram__bytes_read");
  EXPECT_EQ(s[1], "dram__bytes");  // distance 4, like dram__bytes_write: ties by name
}

TEST(MetricSuggestionsTest, FarNamesAreNotOffered) {
  EXPECT_TRUE(closest_names("gpu__time", {"dram__bytes_read", "lts__t_sectors"}, 3).empty());
}

TEST(MetricSuggestionsTest, SubstringFallbackWhenNothingIsClose) {
  const auto s = closest_names("throughput", {"sm__throughput", "dram__throughput", "gpu__time"}, 3);
  EXPECT_EQ(s, (std::vector<std::string>{"sm__throughput", "dram__throughput"}));
}

TEST(MetricSuggestionsTest, AtMostMaxResultsWithoutDuplicates) {
  const auto s = closest_names("abc", {"abd", "abd", "abe", "abf"}, 2);
  EXPECT_EQ(s, (std::vector<std::string>{"abd", "abe"}));
}

}  // namespace
}  // namespace kscope::cupti
