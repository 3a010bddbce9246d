// `kscope import-ncu` as a user runs it.
#include <gtest/gtest.h>

#include "kscope/kscope.hpp"
#include "ncu_test_support.hpp"
#include "subprocess/process_runner.hpp"

namespace kscope {
namespace {

subprocess::ProcessResult cli(const std::vector<std::string>& args) {
  subprocess::ProcessSpec spec;
  spec.argv = {KSCOPE_CLI};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.capture_stdout = true;
  return subprocess::run_process(spec);
}

TEST(ImportNcuCliTest, PrintsTheTableAndWritesJson) {
  const std::string out = testing::scratch_dir("import_ncu_cli") + "vadd.json";
  const auto r = cli({"import-ncu", testing::fixture("ncu/vadd_raw_nvtx.csv"), "-o", out,
                      "--metrics", "gpu__time_duration.sum,launch__grid_size"});
  ASSERT_TRUE(r.succeeded()) << r.status_text() << r.stderr_text();
  EXPECT_NE(r.stdout_text.find("probe@vadd/"), std::string::npos) << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("60832"), std::string::npos) << r.stdout_text;
  const auto back = Results::load(out);
  EXPECT_EQ(back.raw().size(), 6u);
}

TEST(ImportNcuCliTest, UnknownMetricFailsWithTheMessage) {
  const auto r = cli({"import-ncu", testing::fixture("ncu/vadd_raw_nvtx.csv"), "--metrics", "nope"});
  EXPECT_EQ(r.exit_code, 1);
  bool found = false;
  for (const auto& line : r.stderr_tail) found = found || line.find("Invalid value ['nope']") != std::string::npos;
  EXPECT_TRUE(found) << r.stderr_text();
}

TEST(ImportNcuCliTest, MissingFileIsRejected) {
  EXPECT_NE(cli({"import-ncu", "/nonexistent/report.ncu-rep"}).exit_code, 0);
}

}  // namespace
}  // namespace kscope
