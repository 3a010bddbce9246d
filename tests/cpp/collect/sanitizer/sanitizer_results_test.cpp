// Findings in Results: ok(), the JSON file (written and loaded back), the findings CSV and the
// console table.
#include <gtest/gtest.h>

#include <sstream>

#include "collect/ncu/ncu_test_support.hpp"
#include "collect/sanitizer/sanitizer_report.hpp"
#include "kscope/results.hpp"

namespace kscope {
namespace {

Results sanitizer_results(std::vector<Finding> findings) {
  Results::Data d;
  d.name = "sweep";
  d.id = 0;
  d.options.tool = "sanitizer";
  d.options.sanitizer.checks = {"memcheck", "racecheck"};
  d.parameters = {"n"};
  d.configs = configs({1024, 3000}, "n");
  d.metadata.tool = "sanitizer";
  d.checked = true;  // as the sanitizer's session makes it
  d.metadata.gpu = "NVIDIA H200";
  d.findings = std::move(findings);
  return Results(std::move(d));
}

std::vector<Finding> attributed_fixture() {
  auto fs =
      sanitizer::read_sanitizer_report(testing::fixture("sanitizer/memcheck_oob.xml"), "memcheck");
  fs[0].annotation = "scale";
  fs[0].config = 1;
  fs[0].run = 0;
  fs[0].attribution = "annotation";
  fs[1].attribution = "unattributed";
  return fs;
}

TEST(SanitizerResultsTest, OkMeansNothingFound) {
  EXPECT_TRUE(sanitizer_results({}).ok());
  EXPECT_FALSE(sanitizer_results(attributed_fixture()).ok());
  EXPECT_TRUE(Results().ok());
}

// The files name the tool, not whether it checks: a clean check stays a check when loaded, so
// its writers still show "found nothing" rather than an empty processed table.
TEST(SanitizerResultsTest, ACleanCheckIsACheckWhenLoaded) {
  const std::string dir = testing::scratch_dir("sanitizer_results_checked");
  sanitizer_results({}).write_json(dir + "clean.json");
  const auto back = Results::load(dir + "clean.json");
  EXPECT_TRUE(back.checked());
  std::ostringstream table;
  back.print(table);
  EXPECT_NE(table.str().find("compute-sanitizer found nothing"), std::string::npos) << table.str();
  Results::Data measured;
  measured.options.tool = "cupti";
  Results(measured).write_json(dir + "measured.json");
  EXPECT_FALSE(Results::load(dir + "measured.json").checked());
}

TEST(SanitizerResultsTest, JsonRoundTrip) {
  const auto r = sanitizer_results(attributed_fixture());
  const std::string dir = testing::scratch_dir("sanitizer_results_json");
  r.write_json(dir + "r.json");
  const auto back = Results::load(dir + "r.json");
  ASSERT_EQ(back.findings().size(), 2u);
  const Finding& a = r.findings()[0];
  const Finding& b = back.findings()[0];
  EXPECT_EQ(b.check, a.check);
  EXPECT_EQ(b.kind, a.kind);
  EXPECT_EQ(b.category, a.category);
  EXPECT_EQ(b.severity, a.severity);
  EXPECT_EQ(b.kernel, a.kernel);
  EXPECT_EQ(b.function, a.function);
  EXPECT_EQ(b.pc, a.pc);
  EXPECT_EQ(b.block, a.block);
  EXPECT_EQ(b.thread, a.thread);
  EXPECT_EQ(b.address, a.address);
  EXPECT_EQ(b.size, a.size);
  EXPECT_EQ(b.file, a.file);
  EXPECT_EQ(b.line, a.line);
  EXPECT_EQ(b.detail, a.detail);
  EXPECT_EQ(b.count, a.count);
  EXPECT_EQ(b.host_stack, a.host_stack);
  EXPECT_EQ(b.annotation, "scale");
  EXPECT_EQ(b.config, std::optional<std::size_t>(1));
  EXPECT_EQ(b.run, std::optional<std::size_t>(0));
  EXPECT_EQ(b.attribution, "annotation");
  EXPECT_FALSE(back.findings()[1].config.has_value());
  EXPECT_EQ(back.options().sanitizer.checks, (std::vector<std::string>{"memcheck", "racecheck"}));
  EXPECT_FALSE(back.ok());

  const std::string json = r.to_json();
  EXPECT_NE(json.find("\"findings\""), std::string::npos);
  EXPECT_NE(json.find("\"block\": [\n"), std::string::npos);
}

TEST(SanitizerResultsTest, FindingsCsvIsTheThirdFile) {
  const auto r = sanitizer_results(attributed_fixture());
  const std::string dir = testing::scratch_dir("sanitizer_results_csv");
  const auto paths = r.write_csv(dir);
  ASSERT_EQ(paths.size(), 3u);
  EXPECT_EQ(paths[2], dir + "findings-sweep-0.csv");
  const std::string csv = testing::read_text(paths[2]);
  std::istringstream lines(csv);
  std::string header, first;
  std::getline(lines, header);
  std::getline(lines, first);
  EXPECT_EQ(header,
            "Check,Kind,Category,Severity,Annotation,Kernel,Block,Thread,Address,Size,File,Line,"
            "Detail,Count,Config,Run,Attribution,HostStack,n");
  EXPECT_EQ(first.rfind("memcheck,Invalid __global__ write of size 4 bytes,Precise,Error,scale,oob,"
                        "\"0,0,0\",\"0,0,0\",0x7efb9c800000,4,/src/probes/cs_bugs.cu,5,"
                        "out of bounds,1,1,0,annotation,cuLaunchKernel (",
                        0),
            0u)
      << first;
  EXPECT_EQ(first.substr(first.size() - 5), ",3000") << first;

  // Measuring tools keep their two files.
  Results::Data d;
  d.name = "t";
  d.metadata.tool = "cupti";
  EXPECT_EQ(Results(d).write_csv(dir).size(), 2u);
}

TEST(SanitizerResultsTest, TableListsFindingsOrSaysClean) {
  std::ostringstream clean;
  sanitizer_results({}).print(clean);
  EXPECT_NE(clean.str().find("compute-sanitizer found nothing (memcheck, racecheck)"),
            std::string::npos)
      << clean.str();

  std::ostringstream table;
  sanitizer_results(attributed_fixture()).print(table);
  const std::string t = table.str();
  EXPECT_NE(t.find("Check     Annotation  n     Kernel  Category  Kind"), std::string::npos) << t;
  EXPECT_NE(t.find("memcheck  scale       3000  oob     Precise   Invalid __global__ write of size "
                   "4 bytes (out of bounds)  0,0,0  0,0,0   cs_bugs.cu:5  annotation"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("memcheck  -           ?     oob"), std::string::npos) << t;
}

}  // namespace
}  // namespace kscope
