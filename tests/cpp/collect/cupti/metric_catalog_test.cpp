// The metric catalogue through the CUPTI host API, offline for GH100 (H100/H200): validation,
// suggestions, pass counts and units as ncu prints them. Runs in CI without a GPU.
#include <gtest/gtest.h>

#include <algorithm>

#include "collect/cupti/metric_catalog.hpp"
#include "support/error_text.hpp"
#include "host_api_guard.hpp"
#include "kscope/errors.hpp"
#include "kscope/options.hpp"
#include "support/gpu_test.hpp"

namespace kscope::cupti {
namespace {

const MetricCatalog& gh100() {
  static const MetricCatalog catalog("GH100");
  return catalog;
}

using kscope::testing::error_text;
using MetricCatalogTest = kscope::testing::CuptiHostApiTest;

TEST_F(MetricCatalogTest, KnowsHopperAdaAndBlackwellChips) {
  const auto chips = MetricCatalog::supported_chips();
  for (const char* chip : {"GH100", "AD102", "GB100", "GB202"}) {
    EXPECT_NE(std::find(chips.begin(), chips.end(), chip), chips.end()) << chip;
  }
}

TEST_F(MetricCatalogTest, ChipNamesAreCaseInsensitiveLikeNcu) {
  EXPECT_EQ(MetricCatalog("gh100").chip(), "GH100");
}

TEST_F(MetricCatalogTest, UnknownChipListsTheKnownOnes) {
  const auto msg = error_text<InvalidArgument>([] { MetricCatalog c("XX100"); });
  EXPECT_NE(msg.find("Unknown chip 'XX100'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("GH100"), std::string::npos) << msg;
}

TEST_F(MetricCatalogTest, FullNamesHaveTypeAndNcuUnit) {
  struct Case {
    const char* name;
    const char* type;
    const char* unit;
  };
  for (const Case& c : {Case{"gpu__time_duration.sum", "Counter", "ns"},
                        Case{"dram__bytes_read.sum", "Counter", "byte"},
                        Case{"sm__throughput.avg.pct_of_peak_sustained_elapsed", "Throughput", "%"},
                        Case{"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "Counter", "inst"},
                        Case{"lts__t_sector_hit_rate.pct", "Ratio", "%"},
                        Case{"sm__cycles_elapsed.avg.per_second", "Counter", "cycle/second"},
                        Case{"lts__t_sectors.sum", "Counter", "sector"},
                        Case{"sm__warps_launched.sum", "Counter", "warp"},
                        Case{"dram__bytes_read.sum.per_second", "Counter", "byte/second"}}) {
    const auto info = gh100().find(c.name);
    ASSERT_TRUE(info) << c.name;
    EXPECT_EQ(info->name, c.name);
    EXPECT_EQ(info->type, c.type) << c.name;
    EXPECT_EQ(info->unit, c.unit) << c.name;
    EXPECT_FALSE(info->description.empty()) << c.name;
  }
}

TEST_F(MetricCatalogTest, BaseNameWithoutRollupIsNotCollectable) {
  EXPECT_FALSE(gh100().find("dram__bytes_read"));
  EXPECT_FALSE(gh100().find("dram__bytes_read.foo"));
  EXPECT_FALSE(gh100().find("sm__throughput.sum"));
}

TEST_F(MetricCatalogTest, ValidateAcceptsKnownNames) {
  EXPECT_NO_THROW(gh100().validate({"gpu__time_duration.sum", "dram__bytes_read.sum",
                                    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
                                    "lts__t_bytes.sum"}));
}

TEST_F(MetricCatalogTest, UnknownNameUsesTheReferenceTextWithSuggestions) {
  const auto msg = error_text<InvalidArgument>([] { gh100().validate({"dram__byte_read.sum"}); });
  EXPECT_EQ(msg.rfind("Invalid value ['dram__byte_read.sum'] for 'metrics' parameter for "
                      "kscope::profile().\n",
                      0),
            0u)
      << msg;
  EXPECT_NE(msg.find("'dram__byte_read.sum': did you mean 'dram__bytes_read.sum'"), std::string::npos)
      << msg;
  EXPECT_NE(msg.find("kscope query-metrics --chip GH100"), std::string::npos) << msg;
}

TEST_F(MetricCatalogTest, UnknownNameTextNamesTheCallingApi) {
  // Options::call_name: the Python front's decorator instead of the C++ function.
  const auto msg = error_text<InvalidArgument>(
      [] { gh100().validate({"x"}, "kscope.analyze.kernel()"); });
  EXPECT_EQ(msg.rfind("Invalid value ['x'] for 'metrics' parameter for kscope.analyze.kernel().", 0),
            0u)
      << msg;
  EXPECT_EQ(Options().call_name, "kscope::profile()");
}

TEST_F(MetricCatalogTest, AllUnknownNamesAreListedTogether) {
  const auto msg = error_text<InvalidArgument>(
      [] { gh100().validate({"gpu__time_duration.sum", "invalid_value", "dram__bytes_read"}); });
  EXPECT_EQ(msg.rfind("Invalid value ['invalid_value', 'dram__bytes_read'] for 'metrics'", 0), 0u)
      << msg;
}

TEST_F(MetricCatalogTest, BaseNameGetsItsRollupsSuggested) {
  const auto s = gh100().suggest("dram__bytes_read");
  ASSERT_FALSE(s.empty());
  EXPECT_EQ(s.front(), "dram__bytes_read.sum");
  EXPECT_EQ(gh100().suggest("lts__t_sector_hit_rate").front(), "lts__t_sector_hit_rate.pct");
  EXPECT_EQ(gh100().suggest("sm__throughput").front(),
            "sm__throughput.avg.pct_of_peak_sustained_elapsed");
}

TEST_F(MetricCatalogTest, MistypedSubmetricOfAKnownBaseIsCorrected) {
  const auto s = gh100().suggest("sm__throughput.avg.pct_of_peak_sustained_elapsd");
  ASSERT_FALSE(s.empty());
  EXPECT_EQ(s.front(), "sm__throughput.avg.pct_of_peak_sustained_elapsed");
  EXPECT_EQ(gh100().suggest("lts__t_sector_hit_rate.sum").front(), "lts__t_sector_hit_rate.pct");
}

TEST_F(MetricCatalogTest, MistypedBaseKeepsTheUsersRollup) {
  const auto s = gh100().suggest("gpu__time_durations.sum");
  ASSERT_FALSE(s.empty());
  EXPECT_EQ(s.front(), "gpu__time_duration.sum");
}

TEST_F(MetricCatalogTest, NoSuggestionForNonsense) {
  EXPECT_TRUE(gh100().suggest("qqqqqqqqqqqqqqqqqqqqqqqq").empty());
  const auto msg = error_text<InvalidArgument>([] { gh100().validate({"qqqqqqqqqqqqqqqqqqqq"}); });
  EXPECT_EQ(msg.find("did you mean"), std::string::npos) << msg;
}

TEST_F(MetricCatalogTest, NcuOnlyNamesPointToTheNcuTool) {
  // Names Nsight Compute computes that the cupti tool does not serve (launch_metrics.hpp).
  for (const char* name : {"launch__occupancy_per_block_size", "device__attribute_display_name",
                           "profiler__replayer_passes"}) {
    const auto msg = error_text<NotSupportedError>([&] { gh100().validate({name}); });
    EXPECT_NE(msg.find("Use tool 'ncu'"), std::string::npos) << msg;
    EXPECT_NE(msg.find(name), std::string::npos) << msg;
  }
}

TEST_F(MetricCatalogTest, PassCountsMatchTheH200Measurements) {
  EXPECT_EQ(gh100().passes({"sm__throughput.avg.pct_of_peak_sustained_elapsed"}), 8u);
  EXPECT_EQ(gh100().passes({"gpu__time_duration.sum", "dram__bytes_read.sum"}), 1u);
  EXPECT_EQ(gh100().passes({"gpu__time_duration.sum", "dram__bytes_read.sum", "lts__t_bytes.sum",
                            "smsp__inst_executed.sum",
                            "dram__throughput.avg.pct_of_peak_sustained_elapsed",
                            "sm__cycles_elapsed.avg.per_second"}),
            1u);
  EXPECT_EQ(gh100().passes({"gpu__time_duration.sum", "dram__bytes_read.sum",
                            "sm__throughput.avg.pct_of_peak_sustained_elapsed"}),
            8u);
}

TEST_F(MetricCatalogTest, SassMetricsAddOnePassBetweenThem) {
  // SASS metrics are instrumented, never sharing a pass with hardware counters; CUPTI 13.0
  // schedules all of them in one extra pass.
  EXPECT_EQ(gh100().passes({"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"}), 1u);
  EXPECT_EQ(gh100().passes({"gpu__time_duration.sum", "dram__bytes_read.sum",
                            "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"}),
            2u);
  EXPECT_EQ(gh100().passes({"gpu__time_duration.sum", "dram__bytes_read.sum",
                            "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
                            "smsp__sass_inst_executed_op_shared_ld.sum"}),
            2u);
  EXPECT_EQ(gh100().passes({"sm__throughput.avg.pct_of_peak_sustained_elapsed",
                            "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"}),
            9u);
}

TEST_F(MetricCatalogTest, DuplicatesCountOnce) {
  EXPECT_EQ(gh100().passes({"gpu__time_duration.sum", "gpu__time_duration.sum"}), 1u);
}

TEST_F(MetricCatalogTest, PassesValidateFirst) {
  EXPECT_THROW((void)gh100().passes({"dram__bytes_red.sum"}), InvalidArgument);
}

TEST_F(MetricCatalogTest, DeviceLevelMetricsCannotJoinKernelLevelOnes) {
  const auto msg = error_text<InvalidArgument>(
      [] { (void)gh100().passes({"nvlrx__bytes.sum", "dram__bytes_read.sum"}); });
  EXPECT_NE(msg.find("cannot be collected together on GH100"), std::string::npos) << msg;
  EXPECT_NE(msg.find("tool 'ncu'"), std::string::npos) << msg;
}

TEST_F(MetricCatalogTest, ListingFiltersCaseInsensitivelyAndHidesSetEntries) {
  const auto all = gh100().list();
  EXPECT_GT(all.size(), 3000u);
  EXPECT_TRUE(std::is_sorted(all.begin(), all.end(),
                             [](const MetricInfo& a, const MetricInfo& b) { return a.name < b.name; }));
  for (const auto& m : all) ASSERT_EQ(m.name.find('.'), std::string::npos) << m.name;
  const auto dram = gh100().list("DRAM__BYTES_READ");
  ASSERT_FALSE(dram.empty());
  EXPECT_EQ(dram.front().name, "dram__bytes_read");
  EXPECT_EQ(dram.front().type, "Counter");
  EXPECT_EQ(dram.front().unit, "byte");
  EXPECT_EQ(dram.front().description, "# of bytes read from DRAM");
  EXPECT_TRUE(gh100().list("no_such_metric_anywhere").empty());
}

TEST_F(MetricCatalogTest, DeviceCatalogueWithoutGpuSaysNoCudaDevice) {
  std::string reason;
  if (kscope::testing::gpu_available(&reason)) GTEST_SKIP() << "a GPU is present";
  const auto msg = error_text<NoDeviceError>([] { (void)MetricCatalog::for_device(0); });
  EXPECT_EQ(msg.rfind("no CUDA device: ", 0), 0u) << msg;
}

}  // namespace
}  // namespace kscope::cupti
