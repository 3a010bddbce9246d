// Attribution of compute-sanitizer findings to annotation, config and run, from recorded launch
// sequences (fake_program.hpp) that answer the tool's narrowing re-runs like a real program.
#include "collect/sanitizer/finding_attribution.hpp"

#include <gtest/gtest.h>

#include "collect/sanitizer/sanitizer_report.hpp"
#include "fake_program.hpp"

namespace kscope::sanitizer {
namespace {

using testing::enter;
using testing::FakeProgram;
using testing::launch;
using testing::leave;
using testing::oob;
using testing::Step;

// A sweep of `n` configs, each running one annotation "scale" with kernel "scale", buggy (one
// out-of-bounds write) only in config `buggy`: an index off by one at that size.
FakeProgram off_by_one_sweep(std::size_t n, std::size_t buggy) {
  std::vector<std::vector<Step>> configs;
  for (std::size_t c = 0; c < n; ++c) {
    std::vector<Finding> found;
    if (c == buggy) found.push_back(oob("scale", 3000));
    configs.push_back({launch("fill"), enter("scale"), launch("scale", found), leave()});
  }
  return FakeProgram(configs);
}

CheckOutcome attribute(FakeProgram& p, const std::string& check = "memcheck") {
  return attribute_check(check, p.num_configs(), p.runner());
}

TEST(FindingAttributionTest, CleanSweepIsCheckedInOneRun) {
  auto p = off_by_one_sweep(3, 99);
  const auto o = attribute(p);
  EXPECT_TRUE(o.findings.empty());
  EXPECT_EQ(o.program_runs, 1u);
  ASSERT_EQ(p.scopes.size(), 1u);
  EXPECT_FALSE(p.scopes[0].configs.has_value());  // the whole sweep
  EXPECT_TRUE(p.scopes[0].once);
  EXPECT_TRUE(p.scopes[0].release_device);
  EXPECT_EQ(p.scopes[0].stop_at, 0u);
  EXPECT_TRUE(o.notes.empty());
}

TEST(FindingAttributionTest, OnlyTheBuggyConfigIsNamed) {
  auto p = off_by_one_sweep(4, 2);
  const auto o = attribute(p);
  ASSERT_EQ(o.findings.size(), 1u);
  const Finding& f = o.findings[0];
  EXPECT_EQ(f.config, std::optional<std::size_t>(2));
  EXPECT_EQ(f.run, std::optional<std::size_t>(0));
  EXPECT_EQ(f.annotation, "scale");
  EXPECT_EQ(f.attribution, "annotation");
  EXPECT_EQ(f.kernel, "scale");
  EXPECT_EQ(f.thread->x, 3000u);
  // The sweep, each config alone, then two boundaries of config 2's run.
  EXPECT_EQ(o.program_runs, 1u + 4u + 2u);
  std::size_t stopped = 0;
  for (const auto& s : p.scopes) {
    if (s.stop_at == 0) continue;
    ++stopped;
    ASSERT_TRUE(s.configs.has_value());
    EXPECT_EQ(s.configs->front(), 2u);  // only the buggy config's run is narrowed down
  }
  EXPECT_EQ(stopped, 2u);
}

TEST(FindingAttributionTest, KernelLaunchedOutsideAnnotationsIsLabelledOutside) {
  FakeProgram p({{launch("fill", {oob("fill")}), enter("vadd"), launch("vadd"), leave()}});
  const auto o = attribute(p);
  ASSERT_EQ(o.findings.size(), 1u);
  EXPECT_EQ(o.findings[0].annotation, "");
  EXPECT_EQ(o.findings[0].attribution, "outside");
  EXPECT_EQ(o.findings[0].config, std::optional<std::size_t>(0));
}

TEST(FindingAttributionTest, RunWithoutAnnotationsNeedsNoNarrowing) {
  FakeProgram p({{launch("fill", {oob("fill")})}});
  const auto o = attribute(p);
  ASSERT_EQ(o.findings.size(), 1u);
  EXPECT_EQ(o.findings[0].attribution, "outside");
  EXPECT_EQ(o.program_runs, 1u);
}

TEST(FindingAttributionTest, SameFindingInsideAndOutsideIsSplitByLaunchOrder) {
  FakeProgram p({{launch("k", {oob("k")}), enter("A"), launch("k", {oob("k")}), leave(),
                  launch("k", {oob("k")})}});
  const auto o = attribute(p);
  ASSERT_EQ(o.findings.size(), 3u);
  EXPECT_EQ(o.findings[0].attribution, "outside");
  EXPECT_EQ(o.findings[1].attribution, "annotation");
  EXPECT_EQ(o.findings[1].annotation, "A");
  EXPECT_EQ(o.findings[2].attribution, "outside");
}

TEST(FindingAttributionTest, FindingGoesToTheAnnotationThatLaunchedIt) {
  FakeProgram p(
      {{enter("A"), launch("k1"), leave(), enter("B"), launch("k2", {oob("k2", 1), oob("k2", 2)}),
        leave(), enter("C"), launch("k3"), leave()}});
  const auto o = attribute(p);
  ASSERT_EQ(o.findings.size(), 2u);
  for (const auto& f : o.findings) {
    EXPECT_EQ(f.annotation, "B");
    EXPECT_EQ(f.attribution, "annotation");
  }
}

TEST(FindingAttributionTest, BisectionKeepsTheNumberOfRunsSmall) {
  std::vector<Step> steps;
  for (int a = 0; a < 8; ++a) {
    steps.push_back(enter("a" + std::to_string(a)));
    steps.push_back(launch("k", a == 5 ? std::vector<Finding>{oob("k")} : std::vector<Finding>{}));
    steps.push_back(leave());
  }
  FakeProgram p({steps});
  const auto o = attribute(p);
  ASSERT_EQ(o.findings.size(), 1u);
  EXPECT_EQ(o.findings[0].annotation, "a5");
  // 17 windows: one whole run plus about log2(17) stopped runs.
  EXPECT_LE(o.program_runs, 1u + 5u);
}

TEST(FindingAttributionTest, PoisonedContextEndsTheSweepButEveryConfigIsCheckedAlone) {
  auto buggy = [](const std::string& k) {
    Step s = launch(k, {oob(k)});
    s.poisons = true;
    return s;
  };
  FakeProgram p({{enter("s"), buggy("scale"), leave()},
                 {enter("s"), launch("scale"), leave()},
                 {enter("s"), buggy("scale"), leave()}});
  const auto o = attribute(p);
  ASSERT_EQ(o.findings.size(), 2u);
  EXPECT_EQ(o.findings[0].config, std::optional<std::size_t>(0));
  EXPECT_EQ(o.findings[1].config, std::optional<std::size_t>(2));
  EXPECT_EQ(o.findings[1].annotation, "s");
  ASSERT_EQ(o.notes.size(), 2u);
  EXPECT_NE(o.notes[0].find("config 0"), std::string::npos);
  EXPECT_NE(o.notes[0].find("later kernels of that run were not checked"), std::string::npos);
}

// The first GPU run: after the out-of-bounds write every CUDA call failed, and each narrowing
// run's own calls at the boundary where it stopped failed too, so the failed calls were placed
// in annotations and counted as errors. They are the error's consequences: kept with their run,
// not narrowed down (no extra runs), after the error they follow.
TEST(FindingAttributionTest, FailedApiCallsAfterAnErrorStayWithTheirRun) {
  Step s = launch("scale", {oob("scale"), testing::failed_call("cudaDeviceSynchronize"),
                            testing::failed_call("cudaFree")});
  s.poisons = true;
  FakeProgram p({{enter("s"), launch("fill"), leave()},
                 {enter("s"), launch("fill"), leave(), enter("t"), s, leave()}});
  const auto o = attribute(p);
  ASSERT_EQ(o.findings.size(), 3u);
  EXPECT_EQ(o.findings[0].kind, "Invalid __global__ write of size 4 bytes");
  EXPECT_EQ(o.findings[0].annotation, "t");
  EXPECT_EQ(o.findings[0].attribution, "annotation");
  for (std::size_t i = 1; i < 3; ++i) {
    const Finding& f = o.findings[i];
    EXPECT_TRUE(is_api_error(f));
    EXPECT_EQ(f.config, std::optional<std::size_t>(1));
    EXPECT_EQ(f.run, std::optional<std::size_t>(0));
    EXPECT_EQ(f.annotation, "");
    EXPECT_EQ(f.attribution, "run");
  }
  EXPECT_EQ(o.findings[1].function, "cudaDeviceSynchronize");
  EXPECT_EQ(o.findings[2].function, "cudaFree");
  // The sweep, each config alone, and the boundaries that place the write only.
  const auto plain = [] {
    Step q = launch("scale", {oob("scale")});
    q.poisons = true;
    return q;
  }();
  FakeProgram q({{enter("s"), launch("fill"), leave()},
                 {enter("s"), launch("fill"), leave(), enter("t"), plain, leave()}});
  EXPECT_EQ(o.program_runs, attribute(q).program_runs);
}

TEST(FindingAttributionTest, FailedApiCallsAloneArePlaced) {
  FakeProgram p({{enter("a"), launch("k"), leave(), enter("alloc"),
                  launch("k", {testing::failed_call("cudaMalloc")}), leave()}});
  const auto o = attribute(p);
  ASSERT_EQ(o.findings.size(), 1u);
  EXPECT_EQ(o.findings[0].annotation, "alloc");
  EXPECT_EQ(o.findings[0].attribution, "annotation");
}

TEST(FindingAttributionTest, ProgramThatExitsOnTheErrorKeepsConfigButNotAnnotation) {
  Step s = launch("scale", {oob("scale")});
  s.poisons = true;
  FakeProgram p({{enter("s"), s, leave()}, {enter("s"), launch("scale"), leave()}});
  p.exits_on_error = true;
  const auto o = attribute(p);
  ASSERT_EQ(o.findings.size(), 1u);
  EXPECT_EQ(o.findings[0].config, std::optional<std::size_t>(0));
  EXPECT_EQ(o.findings[0].attribution, "run");
  EXPECT_EQ(o.findings[0].annotation, "");
}

TEST(FindingAttributionTest, LeaksOfTheBenchmarkAreKeptThoseOfTheProgramDropped) {
  FakeProgram p(
      {{testing::leak(4096, false), enter("a"), launch("k"), testing::leak(1024, true), leave()},
       {enter("a"), launch("k"), leave()}});
  const auto o = attribute(p);
  ASSERT_EQ(o.findings.size(), 1u);
  EXPECT_EQ(o.findings[0].kind, "Leaked 1024 bytes");
  EXPECT_EQ(o.findings[0].attribution, "session");
  EXPECT_EQ(o.findings[0].config, std::optional<std::size_t>(0));
  EXPECT_EQ(o.findings[0].run, std::optional<std::size_t>(0));

  FakeProgram only_program({{testing::leak(4096, false), enter("a"), launch("k"), leave()}});
  EXPECT_TRUE(attribute(only_program).findings.empty());
}

TEST(FindingAttributionTest, FindingNotReproducedAloneIsKeptUnattributed) {
  Step flaky = launch("race", {oob("race", 0, "racecheck")});
  flaky.flaky = true;
  FakeProgram p({{enter("r"), flaky, leave()}, {enter("r"), launch("race"), leave()}});
  const auto o = attribute(p, "racecheck");
  ASSERT_EQ(o.findings.size(), 1u);
  EXPECT_EQ(o.findings[0].attribution, "unattributed");
  EXPECT_FALSE(o.findings[0].config.has_value());
  EXPECT_FALSE(o.findings[0].run.has_value());
  ASSERT_EQ(o.notes.size(), 1u);
  EXPECT_NE(o.notes[0].find("did not show up again"), std::string::npos);
}

TEST(FindingAttributionTest, OtherChecksFindingsAreNotCounted) {
  FakeProgram p({{enter("a"), launch("k", {oob("k", 0, "racecheck")}), leave()}});
  EXPECT_TRUE(attribute(p, "memcheck").findings.empty());
}

TEST(FindingAttributionTest, SignatureIgnoresAddressesAndCounts) {
  Finding a = oob("k", 1);
  Finding b = a;
  b.address = 0x1234;
  b.count = 7;
  EXPECT_EQ(finding_signature(a), finding_signature(b));
  b.thread = Dim3{2, 0, 0};
  EXPECT_NE(finding_signature(a), finding_signature(b));
}

TEST(FindingAttributionTest, PlaceInRunAsksOnlyForBoundariesItNeeds) {
  std::vector<std::size_t> asked;
  const auto placed = place_in_run({oob("k")}, {"A"}, [&](std::size_t b) {
    asked.push_back(b);
    return b >= 2 ? std::vector<Finding>{oob("k")} : std::vector<Finding>{};
  });
  ASSERT_EQ(placed.size(), 1u);
  EXPECT_EQ(placed[0].annotation, "A");
  EXPECT_EQ(asked, (std::vector<std::size_t>{1, 2}));
}

}  // namespace
}  // namespace kscope::sanitizer
