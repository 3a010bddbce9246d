// `kscope import-ncu` as a user runs it.
#include <gtest/gtest.h>

#include <fstream>

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
  EXPECT_EQ(cli({"import-ncu", "/nonexistent/report.ncu-rep"}).exit_code, 2);  // a usage error
}

// An empty CSV exited 0 with "(no rows)", a binary file said "ncu not available" (issue 38).
TEST(ImportNcuCliTest, EmptyAndBinaryFilesFailNamingTheFile) {
  const std::string dir = testing::scratch_dir("import_ncu_cli_not_csv");
  testing::write_text(dir + "empty.csv", "");
  testing::write_text(dir + "data.bin", std::string("\x7f" "ELF\x02\x01", 6));
  const std::pair<std::string, std::string> cases[] = {
      {dir + "empty.csv", "is empty (0 bytes)"},
      {dir + "data.bin", "is not a text file (byte \\x7F at offset 0)"},
  };
  for (const auto& [path, why] : cases) {
    const auto r = cli({"import-ncu", path});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.stdout_text, "");
    EXPECT_EQ(r.stderr_tail, (std::vector<std::string>{
                                 "kscope: error: '" + path + "' " + why +
                                 ": expected the CSV of ncu's raw page (ncu --csv --page raw) or "
                                 "a .ncu-rep report"}));
  }
}

// The file as `ncu --csv --page raw ./app > out.csv 2>&1` makes it: the program's output before
// the table. It imports; --verbose names the skipped lines.
TEST(ImportNcuCliTest, ProgramOutputBeforeTheTableIsSkipped) {
  const std::string path = testing::scratch_dir("import_ncu_cli_mixed") + "out.csv";
  std::ofstream(path) << "==PROF== Connected to process 7 (/tmp/app)\ndone no error\n"
                      << testing::fixture_text("ncu/vadd_raw_nvtx.csv");
  const auto quiet = cli({"import-ncu", path});
  ASSERT_TRUE(quiet.succeeded()) << quiet.status_text() << quiet.stderr_text();
  EXPECT_NE(quiet.stdout_text.find("60832"), std::string::npos) << quiet.stdout_text;
  EXPECT_EQ(quiet.stdout_text.find("skipped"), std::string::npos) << quiet.stdout_text;
  const auto verbose = cli({"import-ncu", "--verbose", path});
  ASSERT_TRUE(verbose.succeeded()) << verbose.status_text() << verbose.stderr_text();
  EXPECT_NE(verbose.stdout_text.find("'" + path +
                                     "': skipped 2 line(s) before the header row of ncu's raw "
                                     "page:\n  line 1: ==PROF== Connected to process 7 "
                                     "(/tmp/app)\n  line 2: done no error\n"),
            std::string::npos)
      << verbose.stdout_text;
}

}  // namespace
}  // namespace kscope
