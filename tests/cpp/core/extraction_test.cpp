#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/annotation_runs.hpp"
#include "core/extraction.hpp"
#include "kscope/errors.hpp"
#include "records.hpp"

namespace kscope {
namespace {
using testing::kernel;
using testing::run_log;

ExtractionSettings time_only() { return {{kTimeMetric}, {}, {}}; }

std::string extraction_error(const std::vector<KernelRecord>& k, const std::vector<RunLog>& r,
                             const ExtractionSettings& s) {
  try {
    (void)extract(k, r, s);
  } catch (const ExtractionError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ExtractionTest, OneKernelPerAnnotationMapsToConfigAndRun) {
  const auto out = extract({kernel("add", "vadd", 0, 0, 10), kernel("add", "vadd", 0, 1, 11),
                            kernel("add", "vadd", 1, 0, 20), kernel("add", "vadd", 1, 1, 21)},
                           {run_log(0, 0, {"add"}), run_log(0, 1, {"add"}), run_log(1, 0, {"add"}),
                            run_log(1, 1, {"add"})},
                           time_only());
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[2].run.config, 1u);
  EXPECT_EQ(out[2].run.run, 0u);
  EXPECT_DOUBLE_EQ(out[2].values[0], 20);
  EXPECT_EQ(out[2].units[0], "ns");
  EXPECT_EQ(out[2].kernel, "vadd");
}

TEST(ExtractionTest, AnnotationsInFirstAppearanceOrderThenRuns) {
  const auto out = extract({kernel("b", "kb", 0, 0, 1, 1), kernel("a", "ka", 0, 0, 2, 2),
                            kernel("b", "kb", 0, 1, 3, 3), kernel("a", "ka", 0, 1, 4, 4)},
                           {run_log(0, 0, {"b", "a"}), run_log(0, 1, {"b", "a"})}, time_only());
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].annotation, "b");
  EXPECT_EQ(out[1].annotation, "b");
  EXPECT_EQ(out[2].annotation, "a");
  EXPECT_DOUBLE_EQ(out[3].values[0], 4);
}

TEST(ExtractionTest, MoreThanOneKernelIsAnErrorListingSortedNames) {
  const std::string msg = extraction_error(
      {kernel("test_kernels", "vector_multiply", 0, 0, 1, 2), kernel("test_kernels", "vector_add", 0, 0, 1, 1)},
      {run_log(0, 0, {"test_kernels"})}, time_only());
  EXPECT_NE(msg.find("More than one (total=2) kernel is launched within the test_kernels annotation, "
                     "in config 0 run 0.\nWe expect one kernel per annotation."),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("Kernels of that run, in launch order, are:\nvector_add\nvector_multiply"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("ignore_kernel_list"), std::string::npos);
}

TEST(ExtractionTest, IgnoreListDropsKernelsByBaseDemangledOrMangledName) {
  auto mul = kernel("k", "vector_multiply", 0, 0, 5, 2);
  mul.mangled = "_Z15vector_multiplyPfi";
  auto out = extract({kernel("k", "vector_add", 0, 0, 1, 1), mul}, {run_log(0, 0, {"k"})},
                     {{kTimeMetric}, {"vector_multiply"}, {}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].kernel, "vector_add");
  out = extract({kernel("k", "vector_add", 0, 0, 1, 1), mul}, {run_log(0, 0, {"k"})},
                {{kTimeMetric}, {"_Z15vector_multiplyPfi"}, {}});
  EXPECT_EQ(out[0].kernel, "vector_add");
}

TEST(ExtractionTest, CombineReducesKernelsOfOneRunInLaunchOrder) {
  std::vector<KernelRecord> k;
  for (std::size_t run = 0; run < 2; ++run) {
    k.push_back(kernel("mm", "gemm1", 0, run, 10, 3 * run + 1));
    k.push_back(kernel("mm", "gemm2", 0, run, 20, 3 * run + 2));
    k.push_back(kernel("mm", "gemm3", 0, run, 30, 3 * run + 3));
  }
  const auto out = extract(k, {run_log(0, 0, {"mm"}), run_log(0, 1, {"mm"})},
                           {{kTimeMetric}, {}, [](double x, double y) { return x + y; }});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_DOUBLE_EQ(out[0].values[0], 60);
  EXPECT_EQ(out[0].kernel, "gemm1|gemm2|gemm3");
}

TEST(ExtractionTest, DifferentKernelCountsPerRunIsAnError) {
  const std::string msg = extraction_error(
      {kernel("a", "k", 0, 0, 1, 1), kernel("a", "k", 0, 1, 1, 2), kernel("a", "k", 0, 1, 1, 3)},
      {run_log(0, 0, {"a"}), run_log(0, 1, {"a"})}, {{kTimeMetric}, {}, [](double x, double) { return x; }});
  EXPECT_NE(msg.find("Expect same number of kernels per run. Got average of 1.5 per run in annotation 'a', config 0"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("1 kernel(s) in 1 run(s), e.g. config 0 run 0"), std::string::npos) << msg;
  EXPECT_NE(msg.find("2 kernel(s) in 1 run(s), e.g. config 0 run 1"), std::string::npos) << msg;
}

TEST(ExtractionTest, OneKernelErrorNamesTheConfigTheRunAndOnlyThatRunsKernels) {
  // Example 13 on the H200: cuBLAS launches two kernels for one config only. The text names
  // that config's values, the run, and the kernels of that annotation in that run.
  ExtractionSettings s = time_only();
  s.config_labels = {"n=512, dtype=torch.float32", "n=1024, dtype=torch.float32"};
  const std::string msg = extraction_error(
      {kernel("matmul", "sm90_gemm_splitk", 0, 0, 1, 1), kernel("matmul", "splitKreduce", 0, 0, 1, 2),
       kernel("matmul", "sm90_gemm_other", 1, 0, 1, 3)},
      {run_log(0, 0, {"matmul"}), run_log(1, 0, {"matmul"})}, s);
  EXPECT_EQ(msg.rfind("More than one (total=2) kernel is launched within the matmul annotation, in "
                      "config 0 (n=512, dtype=torch.float32) run 0.\n",
                      0),
            0u)
      << msg;
  EXPECT_NE(msg.find("are:\nsm90_gemm_splitk\nsplitKreduce"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("sm90_gemm_other"), std::string::npos) << msg;
}

TEST(ExtractionTest, KernelCountsDifferingBetweenRunsComeBeforeMoreThanOne) {
  // nsight-python's order: config 0 launches 1 kernel, config 1 launches 2 (runs=1): "Expect
  // same number of kernels per run", not "More than one".
  ExtractionSettings s = time_only();
  s.config_labels = {"n=1024", "n=2048"};
  const std::string msg = extraction_error(
      {kernel("v", "gemm", 0, 0, 1, 1), kernel("v", "gemm", 1, 0, 1, 2), kernel("v", "add", 1, 0, 1, 3)},
      {run_log(0, 0, {"v"}), run_log(1, 0, {"v"})}, s);
  EXPECT_EQ(msg.rfind("Expect same number of kernels per run. Got average of 1.5 per run in "
                      "annotation 'v':\n  1 kernel(s) in 1 run(s), e.g. config 0 (n=1024) run 0: gemm\n"
                      "  2 kernel(s) in 1 run(s), e.g. config 1 (n=2048) run 0: gemm, add\n",
                      0),
            0u)
      << msg;
  EXPECT_NE(msg.find("may differ between configs with combine_kernel_metrics"), std::string::npos) << msg;
}

TEST(ExtractionTest, KernelCountsMayDifferBetweenConfigs) {
  // A library may pick another algorithm at another size (cuBLAS split-K: 2 kernels, else 1).
  const auto sum = [](double x, double y) { return x + y; };
  const auto out = extract({kernel("mm", "gemm", 0, 0, 10, 1), kernel("mm", "reduce", 0, 0, 2, 2),
                            kernel("mm", "gemm", 1, 0, 30, 3)},
                           {run_log(0, 0, {"mm"}), run_log(1, 0, {"mm"})}, {{kTimeMetric}, {}, sum});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_DOUBLE_EQ(out[0].values[0], 12);
  EXPECT_EQ(out[0].kernel, "gemm|reduce");
  EXPECT_DOUBLE_EQ(out[1].values[0], 30);
  EXPECT_EQ(out[1].kernel, "gemm");
}

TEST(ExtractionTest, EnteredAnnotationWithoutKernelsIsAnError) {
  const std::string msg = extraction_error({}, {run_log(0, 0, {"copy"})}, time_only());
  EXPECT_NE(msg.find("No kernels were profiled in annotation 'copy' (entered in 1 runs)"), std::string::npos)
      << msg;
}

TEST(ExtractionTest, FailedRunBecomesNaNAndSkipsTheCountCheck) {
  // Run 1 failed before its kernel launched: no kernel, but no count error either.
  const auto out = extract({kernel("a", "k", 0, 0, 7, 1), kernel("a", "k", 0, 2, 9, 3)},
                           {run_log(0, 0, {"a"}), run_log(0, 1, {"a"}, {"a"}), run_log(0, 2, {"a"})},
                           time_only());
  ASSERT_EQ(out.size(), 3u);
  EXPECT_TRUE(out[1].failed);
  EXPECT_TRUE(std::isnan(out[1].values[0]));
  EXPECT_DOUBLE_EQ(out[2].values[0], 9);
}

TEST(ExtractionTest, FailedRunWithKernelKeepsUnitsButNotValues) {
  const auto out = extract({kernel("a", "k", 0, 0, 7, 1)}, {run_log(0, 0, {"a"}, {"a"})}, time_only());
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(std::isnan(out[0].values[0]));
  EXPECT_EQ(out[0].units[0], "ns");
}

TEST(ExtractionTest, AnnotationOnlyInSomeConfigsGivesRowsOnlyThere) {
  const auto out = extract({kernel("sub", "k", 1, 0, 5, 1)}, {run_log(0, 0, {}), run_log(1, 0, {"sub"})},
                           time_only());
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].run.config, 1u);
}

TEST(ExtractionTest, WarmupRecordsAndKernelsOutsideAnnotationsAreIgnored) {
  auto warm = kernel("a", "k", 0, 0, 100, 1);
  warm.run.warmup = true;
  auto outside = kernel("", "k", 0, 0, 100, 2);
  const auto out = extract({warm, outside, kernel("a", "k", 0, 0, 5, 3)}, {run_log(0, 0, {"a"})}, time_only());
  ASSERT_EQ(out.size(), 1u);
  EXPECT_DOUBLE_EQ(out[0].values[0], 5);
}

TEST(ExtractionTest, MissingMetricIsReported) {
  const std::string msg = extraction_error({kernel("a", "k", 0, 0, 5, 1)}, {run_log(0, 0, {"a"})},
                                           {{kTimeMetric, "dram__bytes_read.sum"}, {}, {}});
  EXPECT_NE(msg.find("metric 'dram__bytes_read.sum' is missing from the measurement of kernel 'k'"),
            std::string::npos)
      << msg;
}

TEST(ExtractionTest, MultipleMetricsStayInRequestedOrder) {
  KernelRecord k = kernel("a", "k", 0, 0, 5, 1);
  k.metrics.insert(k.metrics.begin(), Measurement{"dram__bytes_read.sum", 1024, std::string("byte")});
  const auto out = extract({k}, {run_log(0, 0, {"a"})}, {{kTimeMetric, "dram__bytes_read.sum"}, {}, {}});
  EXPECT_DOUBLE_EQ(out[0].values[0], 5);
  EXPECT_DOUBLE_EQ(out[0].values[1], 1024);
  EXPECT_EQ(out[0].units[1], "byte");
}

// The grouping extraction and the Session's kernel-count check read.
std::vector<std::string> kernel_names(const AnnotationRuns& a, const AnnotationRuns::Run& run) {
  std::vector<std::string> names;
  for (const KernelRecord* k : a.kernels(run)) names.push_back(k->kernel);
  return names;
}

TEST(AnnotationRunsTest, RunsInOrderWithTheirKernelsInLaunchOrderWhateverTheRecordOrder) {
  // Records and logs out of order, two annotations interleaved within a run, a run (0, 2) whose
  // log is missing (a journal cut), an ignored kernel whose run stays, a failed run.
  const std::vector<KernelRecord> records{
      kernel("a", "a2", 0, 1, 1, 6), kernel("b", "b1", 0, 0, 1, 2), kernel("a", "a1", 0, 1, 1, 5),
      kernel("a", "x", 0, 0, 1, 1),  kernel("a", "a0", 0, 0, 1, 3), kernel("a", "late", 0, 2, 1, 9),
      kernel("a", "skipped", 1, 0, 1, 10), kernel("c", "c", 1, 0, 1, 11)};
  const std::vector<RunLog> logs{run_log(1, 0, {"a"}), run_log(0, 1, {"a"}, {"a"}),
                                 run_log(0, 0, {"b", "a"}), run_log(0, 3, {"a"})};
  const auto groups = group_annotation_runs(records, logs, {"skipped"});
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0].name, "b");
  EXPECT_EQ(groups[1].name, "a");
  EXPECT_EQ(groups[2].name, "c");  // only in records
  const AnnotationRuns& a = groups[1];
  const std::vector<RunId> want{{0, 0, false}, {0, 1, false}, {0, 2, false}, {0, 3, false},
                                {1, 0, false}};
  ASSERT_EQ(a.runs.size(), want.size());
  EXPECT_EQ(a.order, want);
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_EQ(a.runs[i].id, want[i]) << i;
  EXPECT_EQ(kernel_names(a, a.runs[0]), (std::vector<std::string>{"x", "a0"}));
  EXPECT_EQ(kernel_names(a, a.runs[1]), (std::vector<std::string>{"a1", "a2"}));
  EXPECT_TRUE(a.runs[1].failed);
  EXPECT_FALSE(a.runs[0].failed);
  EXPECT_EQ(kernel_names(a, a.runs[2]), (std::vector<std::string>{"late"}));
  EXPECT_TRUE(a.kernels(a.runs[3]).empty());  // entered, launched nothing
  EXPECT_TRUE(a.kernels(a.runs[4]).empty());  // its one kernel is on the ignore list
  ASSERT_EQ(groups[0].runs.size(), 1u);
  EXPECT_EQ(kernel_names(groups[0], groups[0].runs[0]), (std::vector<std::string>{"b1"}));
}

}  // namespace
}  // namespace kscope
