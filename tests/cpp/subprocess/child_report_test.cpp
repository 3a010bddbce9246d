#include "subprocess/child_report.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "kscope/errors.hpp"
#include "support/gpu_test.hpp"

namespace kscope::subprocess {
namespace {

TEST(ChildReportTest, RoundTrips) {
  ChildReport r;
  r.runs.push_back(RunLog{RunId{1, 2, false}, {"vadd", "scale"}, {"scale"}});
  r.trace = {{"vadd", RunId{0, 0, true}}, {"vadd", RunId{1, 2, false}}};
  r.metadata.gpu = "NVIDIA H200";
  r.metadata.compute_clock = 1980000;
  r.error = "boom";
  r.error_kind = "ConfigError";
  const std::string path = testing::scratch_dir("child_report") + "r.json";
  write_child_report(path, r);

  const auto back = read_child_report(path);
  ASSERT_TRUE(back.has_value());
  ASSERT_EQ(back->runs.size(), 1u);
  EXPECT_EQ(back->runs[0].run, (RunId{1, 2, false}));
  EXPECT_EQ(back->runs[0].entered, (std::vector<std::string>{"vadd", "scale"}));
  EXPECT_EQ(back->runs[0].failed, (std::vector<std::string>{"scale"}));
  ASSERT_EQ(back->trace.size(), 2u);
  EXPECT_EQ(back->trace[0].annotation, "vadd");
  EXPECT_TRUE(back->trace[0].run.warmup);
  EXPECT_EQ(back->trace[1].run, (RunId{1, 2, false}));
  EXPECT_EQ(back->metadata.gpu, "NVIDIA H200");
  EXPECT_EQ(back->metadata.compute_clock, 1980000);
  EXPECT_EQ(back->error, "boom");
  EXPECT_EQ(back->error_kind, "ConfigError");
}

TEST(ChildReportTest, MissingFileMeansTheChildNeverReported) {
  EXPECT_FALSE(read_child_report(testing::scratch_dir("child_report_missing") + "none.json"));
}

TEST(ChildReportTest, TruncatedOrForeignFilesAreErrorsNamingThePath) {
  const std::string dir = testing::scratch_dir("child_report_bad");
  std::ofstream(dir + "cut.json") << "{\"kind\": \"kscope.child_report\", \"runs\": [";
  std::ofstream(dir + "other.json") << "{\"kind\": \"kscope.results\"}";
  for (const char* f : {"cut.json", "other.json"}) {
    try {
      (void)read_child_report(dir + f);
      ADD_FAILURE() << f;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(f), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace kscope::subprocess
