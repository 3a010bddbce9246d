// Attribution of ncu results to (annotation, config, run): by kscope's NVTX payload, or in launch
// order against the child's annotation trace; on the synthetic sweeps (see fixtures README).
#include "collect/ncu/ncu_record_mapper.hpp"

#include <gtest/gtest.h>

#include "kscope/errors.hpp"
#include "ncu_test_support.hpp"

namespace kscope::ncu {
namespace {

NcuRawTable table(const std::string& fixture) {
  return NcuRawTable::parse(testing::fixture_text("ncu/" + fixture), fixture);
}

// The annotations the fixtures' child entered: per config a warm-up then 2 runs, each
// entering vadd then scale.
std::vector<subprocess::AnnotationEntry> sweep_trace() {
  std::vector<subprocess::AnnotationEntry> t;
  for (std::size_t c = 0; c < 2; ++c) {
    t.push_back({"vadd", RunId{c, 0, true}});
    t.push_back({"scale", RunId{c, 0, true}});
    for (std::size_t r = 0; r < 2; ++r) {
      t.push_back({"vadd", RunId{c, r, false}});
      t.push_back({"scale", RunId{c, r, false}});
    }
  }
  return t;
}

void expect_sweep_records(const std::vector<KernelRecord>& recs) {
  ASSERT_EQ(recs.size(), 8u);  // warm-ups dropped
  for (const auto& k : recs) {
    const double expected = 10000 + 1000.0 * static_cast<double>(k.run.config) +
                            100.0 * static_cast<double>(k.run.run) + (k.annotation == "scale");
    ASSERT_EQ(k.metrics.size(), 1u);
    EXPECT_EQ(k.metrics[0].metric, kTimeMetric);
    EXPECT_EQ(k.metrics[0].value, expected) << k.annotation << " " << k.run.config << "." << k.run.run;
    EXPECT_EQ(k.metrics[0].unit, std::optional<std::string>("ns"));
    EXPECT_EQ(k.kernel, k.annotation);  // base name of "vadd(const float *, ...)"
    EXPECT_FALSE(k.run.warmup);
  }
  EXPECT_EQ(recs[7].mangled, "scale(float *, float, int)");
  EXPECT_EQ(recs[7].run, (RunId{1, 1, false}));
  EXPECT_EQ(recs[7].sequence, 11u);  // ncu's result ID
}

TEST(NcuRecordMapperTest, AttributesByPayload) {
  const auto out = ncu_kernel_records(table("kscope_sweep_payload.csv"), {kTimeMetric}, {});
  EXPECT_EQ(out.attribution, Attribution::kPayload);
  expect_sweep_records(out.records);
}

TEST(NcuRecordMapperTest, AttributesInLaunchOrderWithoutPayload) {
  const auto out = ncu_kernel_records(table("kscope_sweep_no_payload.csv"), {kTimeMetric}, sweep_trace());
  EXPECT_EQ(out.attribution, Attribution::kLaunchOrder);
  expect_sweep_records(out.records);
}

TEST(NcuRecordMapperTest, LaunchOrderSkipsAnnotationsWithoutKernels) {
  auto trace = sweep_trace();
  trace.insert(trace.begin() + 2, {"no_kernels_here", RunId{0, 0, false}});
  const auto out = ncu_kernel_records(table("kscope_sweep_no_payload.csv"), {kTimeMetric}, trace);
  expect_sweep_records(out.records);
}

TEST(NcuRecordMapperTest, LaunchOrderFailsClearlyWhenTheTraceDoesNotMatch) {
  auto trace = sweep_trace();
  trace.resize(5);
  try {
    (void)ncu_kernel_records(table("kscope_sweep_no_payload.csv"), {kTimeMetric}, trace);
    FAIL();
  } catch (const ExtractionError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot attribute ncu result"), std::string::npos);
  }
}

TEST(NcuRecordMapperTest, MissingMetricColumnUsesTheReferenceText) {
  try {
    (void)ncu_kernel_records(table("kscope_sweep_payload.csv"), {kTimeMetric, "not_a_metric"}, {});
    FAIL();
  } catch (const InvalidArgument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("Invalid value ['not_a_metric'] for 'metrics' parameter"), std::string::npos);
    EXPECT_NE(what.find("kscope_sweep_payload.csv"), std::string::npos);
  }
}

TEST(NcuRecordMapperTest, ResultsOutsideKscopeAnnotationsAreIgnored) {
  EXPECT_TRUE(ncu_kernel_records(table("nvtx_nested_raw_stdout.csv"), {kTimeMetric}, {}).records.empty());
  EXPECT_TRUE(ncu_kernel_records(NcuRawTable::parse("", "empty"), {"anything"}, {}).records.empty());
}

TEST(NcuRecordMapperTest, RangeReplayResultsAreNamedRange) {
  const auto out = ncu_kernel_records(table("kscope_range_replay.csv"), {kTimeMetric}, {});
  ASSERT_EQ(out.records.size(), 8u);
  for (const auto& k : out.records) EXPECT_EQ(k.kernel, "range");
}

}  // namespace
}  // namespace kscope::ncu
