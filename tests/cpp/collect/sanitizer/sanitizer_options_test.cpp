// The sanitizer options (validation and their errors), the child scope that narrows a
// re-executed child down, and the boundary hook of the child's collector.
#include <gtest/gtest.h>

#include "core/annotation_registry.hpp"
#include "kscope/errors.hpp"
#include "kscope/options.hpp"
#include "subprocess/child_collector.hpp"
#include "subprocess/child_scope.hpp"
#include "support/error_text.hpp"

namespace kscope {
namespace {

std::string error_of(const Options& o) {
  return testing::error_text<InvalidArgument>([&] { o.validate(); });
}

TEST(SanitizerOptionsTest, DefaultsAreValid) {
  Options o;
  EXPECT_EQ(o.sanitizer.checks, std::vector<std::string>{"memcheck"});
  EXPECT_FALSE(o.sanitizer.leak_check);
  EXPECT_EQ(o.sanitizer.print_limit, 1000);
  o.tool = "sanitizer";
  o.sanitizer.checks = {"memcheck", "racecheck", "initcheck", "synccheck"};
  o.sanitizer.leak_check = true;
  o.sanitizer.print_limit = 0;
  EXPECT_NO_THROW(o.validate());
  EXPECT_EQ(allowed_values("sanitizer_checks"),
            (std::vector<std::string>{"memcheck", "racecheck", "initcheck", "synccheck"}));
}

TEST(SanitizerOptionsTest, UnknownCheckIsNamed) {
  Options o;
  o.sanitizer.checks = {"memcheck", "leakcheck"};
  EXPECT_EQ(error_of(o),
            "Invalid sanitizer_checks entry 'leakcheck'. Expected any of 'memcheck', "
            "'racecheck', 'initcheck' or 'synccheck'.");
}

TEST(SanitizerOptionsTest, NoCheckOrTwiceTheSameIsAnError) {
  Options o;
  o.sanitizer.checks = {};
  EXPECT_NE(error_of(o).find("Invalid sanitizer_checks []: name at least one check"),
            std::string::npos);
  o.sanitizer.checks = {"racecheck", "racecheck"};
  EXPECT_EQ(error_of(o),
            "Invalid sanitizer_checks: 'racecheck' is listed twice; name each check once.");
}

TEST(SanitizerOptionsTest, LeakCheckNeedsMemcheck) {
  Options o;
  o.sanitizer.checks = {"racecheck"};
  o.sanitizer.leak_check = true;
  EXPECT_NE(error_of(o).find("sanitizer_leak_check is part of the 'memcheck' check"),
            std::string::npos);
}

TEST(SanitizerOptionsTest, NegativePrintLimit) {
  Options o;
  o.sanitizer.print_limit = -1;
  EXPECT_EQ(error_of(o),
            "Invalid sanitizer_print_limit -1. Expected an integer >= 0 (0: no limit).");
}

using subprocess::ChildScope;

TEST(ChildScopeTest, RoundTripsThroughTheVariable) {
  ChildScope s;
  EXPECT_EQ(s.to_string(), "");
  s.configs = std::vector<std::size_t>{2, 5};
  s.once = true;
  s.stop_at = 3;
  s.release_device = true;
  EXPECT_EQ(s.to_string(), "configs=2,5;once;stop=3;release");
  EXPECT_EQ(s.environment(), (std::vector<std::pair<std::string, std::string>>{
                                 {"KSCOPE_CHILD_SCOPE", "configs=2,5;once;stop=3;release"}}));
  const ChildScope back = ChildScope::parse(s.to_string());
  EXPECT_EQ(back.configs, s.configs);
  EXPECT_TRUE(back.once);
  EXPECT_EQ(back.stop_at, 3u);
  EXPECT_TRUE(back.release_device);
  const ChildScope whole = ChildScope::parse("");
  EXPECT_FALSE(whole.configs.has_value());
  EXPECT_FALSE(whole.once);
  EXPECT_EQ(whole.stop_at, 0u);
}

TEST(ChildScopeTest, ABudgetRoundTrips) {
  subprocess::ChildScope s;
  s.configs = std::vector<std::size_t>{4, 5, 6};
  s.budget_ms = 60000;
  EXPECT_EQ(s.to_string(), "configs=4,5,6;budget=60000");
  const auto back = subprocess::ChildScope::parse(s.to_string());
  EXPECT_EQ(back.budget_ms, 60000u);
  EXPECT_EQ(*back.configs, (std::vector<std::size_t>{4, 5, 6}));
  EXPECT_THROW((void)subprocess::ChildScope::parse("budget=x"), Error);
}

TEST(ChildScopeTest, MalformedValuesNameTheVariable) {
  for (const std::string bad :
       {"configs=", "configs=1,,2", "stop=x", "stop=0", "twice", "configs=-1"}) {
    try {
      (void)ChildScope::parse(bad);
      ADD_FAILURE() << bad;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("malformed KSCOPE_CHILD_SCOPE='" + bad + "'"),
                std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("unset it to run normally"), std::string::npos);
    }
  }
}

TEST(ChildScopeTest, SelectsConfigsAndRunsEachOnce) {
  auto cs = configs({10, 20, 30}, "n");
  for (std::size_t i = 0; i < cs.size(); ++i) cs[i].set_index(i);
  ChildScope s;
  EXPECT_EQ(s.select(cs).size(), 3u);
  s.configs = std::vector<std::size_t>{2};
  const auto one = s.select(cs);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].get<int>(0), 30);
  EXPECT_EQ(one[0].index(), 2u);
  s.configs = std::vector<std::size_t>{3};
  EXPECT_THROW((void)s.select(cs), Error);

  Options o;
  o.runs = 20;
  o.warmup_runs = 3;
  EXPECT_EQ(s.apply(o).runs, 20);  // not "once": unchanged
  s.once = true;
  const Options once = s.apply(o);
  EXPECT_EQ(once.runs, 1);
  EXPECT_EQ(once.warmup_runs, 0);
  EXPECT_EQ(once.cache_control, "none");
  EXPECT_EQ(once.thermal.mode, "off");
}

TEST(ChildCollectorBoundaryTest, EveryEntryAndExitDuringARunIsNumbered) {
  auto& registry = AnnotationRegistry::instance();
  subprocess::ChildCollector collector;
  std::vector<std::size_t> seen;
  collector.set_boundary_hook([&](std::size_t b) { seen.push_back(b); });
  SessionInfo info;
  collector.begin(info);
  (void)registry.begin("outside_run");  // not during a run: not counted
  registry.end(false);
  const RunId run{0, 0, false};
  registry.start_run(run);
  collector.before_run(run, 0);
  (void)registry.begin("a");
  registry.end(false);
  (void)registry.begin("b");
  registry.end(false);
  collector.after_run(run, 0);
  (void)registry.finish_run();
  (void)collector.end();
  EXPECT_EQ(seen, (std::vector<std::size_t>{1, 2, 3, 4}));
  ASSERT_EQ(collector.trace().size(), 2u);
  EXPECT_EQ(collector.trace()[1].annotation, "b");
}

}  // namespace
}  // namespace kscope
