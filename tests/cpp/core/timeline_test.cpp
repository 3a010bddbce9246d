// The timeline's packed span lists (kscope/timeline.hpp): every span reads back as it was added,
// in order, whatever it shares with the spans next to it.

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "kscope/timeline.hpp"

namespace kscope {
namespace {

TEST(TimelineTest, PhasesReadBackAsTheyWereAdded) {
  const std::vector<PhaseSpan> spans = {
      {"environment before", 0, 0, false, 0, "", 100, 150, 0},
      {"benchmark", 0, 0, false, 0, "", 150, 400, 0},
      {"region entry", 0, 0, false, 0, "a", 160, 170, 0},
      {"benchmark", 0, 0, false, 1, "", 400, 500, 0},  // the run's next replay pass
      {"journal", std::nullopt, std::nullopt, false, 0, "", 500, 600, 0},
      {"benchmark", 3, std::nullopt, true, 0, "", 600, 5'000'000'000'000, 2},
      {"region entry", 18'000'000'000'000'000'000U, 7, false, -1, "\xC3\xA9", -5, -1, 1},
      {"benchmark", 0, 0, false, 0, "", 150, 400, 0},  // the first run's key again, later
  };
  const PhaseSpans packed(spans.begin(), spans.end());
  ASSERT_EQ(packed.size(), spans.size());
  for (std::size_t i = 0; i < spans.size(); ++i) EXPECT_EQ(packed[i], spans[i]) << i;
  EXPECT_EQ(std::vector<PhaseSpan>(packed.begin(), packed.end()), spans);
  EXPECT_EQ(packed.front(), spans.front());
  EXPECT_EQ(packed.back(), spans.back());
  EXPECT_EQ(packed.end() - packed.begin(), 8);
  EXPECT_EQ(packed.begin()[4].phase, "journal");
  EXPECT_EQ(packed, PhaseSpans(spans.begin(), spans.end()));
  PhaseSpans other = packed;
  other.push_back(spans[0]);
  EXPECT_NE(packed, other);
  EXPECT_THROW((void)packed.at(8), std::out_of_range);
  EXPECT_TRUE(PhaseSpans().empty());
}

TEST(TimelineTest, KernelsReadBackAsTheyWereAdded) {
  const KernelSpans packed = {{"a", "vadd", 0, 0, false, 0, 7u, 110, 190, 0},
                              {"b", "vadd_vec4", 5, 2, true, 3, std::nullopt, 310, 390, 4},
                              {"a", "vadd", 0, 1, false, 0, 0u, 400, 500, 0}};
  ASSERT_EQ(packed.size(), 3U);
  EXPECT_EQ(packed[1].kernel, "vadd_vec4");
  EXPECT_EQ(packed[1].stream, std::nullopt);
  EXPECT_EQ(packed[2].stream, std::optional<std::uint32_t>(0));
  EXPECT_EQ(packed[1].device, 3);
  EXPECT_TRUE(packed[1].warmup);
  EXPECT_EQ(packed[1].part, 4U);
  EXPECT_EQ(packed[0], (KernelSpan{"a", "vadd", 0, 0, false, 0, 7u, 110, 190, 0}));
}

}  // namespace
}  // namespace kscope
