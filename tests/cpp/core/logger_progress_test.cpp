#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/logger.hpp"
#include "core/progress.hpp"

namespace kscope {
namespace {

Options capture(std::string* out, Verbosity v, bool interactive) {
  Options o;
  o.verbosity = v;
  o.interactive = interactive;
  o.log = [out](std::string_view s) { out->append(s); };
  return o;
}

TEST(LoggerTest, SilentPrintsNothing) {
  std::string out;
  Logger log(capture(&out, Verbosity::kSilent, false));
  log.info("x");
  log.debug("y");
  log.warn("z");
  log.box("a", "b");
  EXPECT_EQ(out, "");
}

TEST(LoggerTest, InfoAndDebugLevels) {
  std::string out;
  Logger info(capture(&out, Verbosity::kInfo, false));
  info.info("hello");
  info.debug("hidden");
  EXPECT_EQ(out, "[kscope] hello\n");
  out.clear();
  Logger debug(capture(&out, Verbosity::kDebug, false));
  debug.debug("shown");
  EXPECT_EQ(out, "[kscope] shown\n");
}

TEST(LoggerTest, WarningsGoToTheWarningSinkWhenSet) {
  std::string out, warned;
  Options o = capture(&out, Verbosity::kInfo, false);
  o.on_warning = [&](std::string_view s) { warned = std::string(s); };
  Logger log(o);
  log.warn("careful");
  EXPECT_EQ(warned, "careful");
  EXPECT_EQ(out, "");
  Logger plain(capture(&out, Verbosity::kInfo, false));
  plain.warn("careful");
  EXPECT_EQ(out, "[kscope] warning: careful\n");
}

TEST(LoggerTest, BoxIsAtLeastEightyColumnsAndCentred) {
  std::string out;
  Logger log(capture(&out, Verbosity::kInfo, false));
  log.box("Profiling vadd", "2 configurations, 3 runs each");
  EXPECT_NE(out.find("╔"), std::string::npos);
  EXPECT_NE(out.find("Profiling vadd"), std::string::npos);
  EXPECT_NE(out.find("2 configurations, 3 runs each"), std::string::npos);
}

TEST(ProgressTest, PlainOutputHasNoEscapeCodes) {
  std::string out;
  Logger log(capture(&out, Verbosity::kInfo, false));
  Progress p(log, 2, 3);
  p.start_config(0, "n=1");
  for (int i = 0; i < 3; ++i) p.run_done();
  p.start_config(1, "n=2");
  for (int i = 0; i < 3; ++i) p.run_done();
  p.finish();
  EXPECT_EQ(out.find('\033'), std::string::npos) << out;
  EXPECT_EQ(out.find('\r'), std::string::npos) << out;
  EXPECT_NE(out.find("[kscope] Config 1/2 (n=1) ["), std::string::npos) << out;
  EXPECT_NE(out.find("100.00%"), std::string::npos) << out;
}

TEST(ProgressTest, TerminalOutputRedrawsInPlace) {
  std::string out;
  Logger log(capture(&out, Verbosity::kInfo, true));
  Progress p(log, 1, 1);
  p.start_config(0, "n=1");
  p.run_done();
  p.finish();
  EXPECT_NE(out.find("\r\033[2K[kscope] Config 1/1 (n=1)"), std::string::npos) << out;
  EXPECT_EQ(out.back(), '\n');
}

TEST(ProgressTest, ACallersDisplayGetsTheUpdatesAndNothingIsPrinted) {
  std::string out;
  Options o = capture(&out, Verbosity::kInfo, true);
  std::vector<ProgressUpdate> updates;
  o.on_progress = [&](const ProgressUpdate& u) { updates.push_back(u); };
  Logger log(o);
  Progress p(log, 2, 3);
  p.start_config(0, "n=1");
  for (int i = 0; i < 3; ++i) p.run_done();  // within 100 ms of the start: not sent
  p.start_config(1, "n=2");
  p.run_done();
  p.finish();
  EXPECT_EQ(out, "");
  ASSERT_EQ(updates.size(), 3U);
  EXPECT_EQ(updates[0].config, 0U);
  EXPECT_EQ(updates[0].label, "n=1");
  EXPECT_EQ(updates[0].done_runs, 0U);
  EXPECT_EQ(updates[1].config, 1U);
  EXPECT_EQ(updates[1].done_runs, 3U);
  EXPECT_FALSE(updates[1].finished);
  EXPECT_EQ(updates[2].done_runs, 6U);
  EXPECT_EQ(updates[2].total_runs, 6U);
  EXPECT_EQ(updates[2].num_configs, 2U);
  EXPECT_TRUE(updates[2].finished);
}

TEST(ProgressTest, ACallersDisplayIsSilentWhenSilent) {
  std::string out;
  Options o = capture(&out, Verbosity::kSilent, false);
  int calls = 0;
  o.on_progress = [&](const ProgressUpdate&) { ++calls; };
  Logger log(o);
  Progress p(log, 1, 1);
  p.start_config(0, "");
  p.finish();
  EXPECT_EQ(calls, 0);
}

TEST(ProgressTest, LineShowsPercentAndEta) {
  std::string out;
  Logger log(capture(&out, Verbosity::kInfo, false));
  Progress p(log, 4, 1);
  p.start_config(1, "n=2");
  p.run_done();
  const std::string line = p.line();
  EXPECT_NE(line.find("Config 2/4 (n=2)"), std::string::npos) << line;
  EXPECT_NE(line.find(" 25.00%"), std::string::npos) << line;
  EXPECT_NE(line.find("ETA 00:00:0"), std::string::npos) << line;
}

TEST(ProgressTest, FormatEta) {
  EXPECT_EQ(format_eta(3725), "01:02:05");
  EXPECT_EQ(format_eta(-1), "--:--:--");
}

}  // namespace
}  // namespace kscope
