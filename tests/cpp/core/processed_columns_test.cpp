// The processed column table (core/processed_columns): names are unique, lookups of a name it
// does not have fail loudly, and merge's copy takes exactly the config's own columns.
#include "core/processed_columns.hpp"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

namespace kscope {
namespace {

TEST(ProcessedColumns, NamesAreUniqueAndGroupsAppearOnce) {
  std::set<std::string> names;
  for (const auto& c : processed_columns()) EXPECT_TRUE(names.insert(c.name).second) << c.name;
  EXPECT_EQ(std::string(processed_columns().front().name), "Annotation");
  EXPECT_TRUE(std::holds_alternative<ParameterColumns>(processed_column("<parameters>").field));
  EXPECT_TRUE(std::holds_alternative<InfoColumns>(processed_column("<info collectors>").field));
}

TEST(ProcessedColumns, AnUnknownNameIsALogicError) {
  try {
    (void)processed_column("NoSuchColumn");
    FAIL() << "no throw";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "no processed column 'NoSuchColumn'");
  }
}

TEST(ProcessedColumns, MergeCopiesTheConfigsOwnColumnsOnly) {
  ProcessedRow from;
  from.clock_mhz_min = 1980;
  from.temp_c_max = 61;
  from.power_w_avg = 400;
  from.throttled = 0.5;
  from.info = {InfoValue(3.0)};
  from.stop_reason = "target";
  from.avg = 7;
  from.error = "ValueError: x";
  ProcessedRow to;
  to.avg = 2;
  copy_config_columns(from, &to);
  EXPECT_EQ(to.clock_mhz_min, 1980);
  EXPECT_EQ(to.temp_c_max, 61);
  EXPECT_EQ(to.power_w_avg, 400);
  EXPECT_EQ(to.throttled, 0.5);
  ASSERT_EQ(to.info.size(), 1u);
  EXPECT_EQ(to.info[0].number(), 3.0);
  EXPECT_EQ(to.stop_reason, "target");
  EXPECT_EQ(to.avg, 2);             // a statistic of the raw rows: rebuilt, not copied
  EXPECT_FALSE(to.error.has_value());  // the failure rows are added by merge itself
}

TEST(ProcessedColumns, ConditionalColumnsFollowWhatTheResultHolds) {
  Results::Data d;
  d.processed.resize(1);
  const Results plain{Results::Data(d)};
  EXPECT_FALSE(is_shown(processed_column("NormalizationValue"), plain));
  EXPECT_FALSE(is_shown(processed_column("Error"), plain));
  EXPECT_FALSE(is_shown(processed_column("StopReason"), plain));
  EXPECT_TRUE(is_shown(processed_column("Geomean"), plain));
  d.processed[0].normalized = "base";
  d.processed[0].stop_reason = "max_runs";
  d.failures.push_back(ConfigFailure{});
  const Results all{std::move(d)};
  EXPECT_TRUE(is_shown(processed_column("NormalizationValue"), all));
  EXPECT_TRUE(is_shown(processed_column("Error"), all));
  EXPECT_TRUE(is_shown(processed_column("StopReason"), all));
}

}  // namespace
}  // namespace kscope
