// kscope::merge (api/merge.cpp): the shards of one sweep join into the result of the whole
// sweep; overlaps, gaps and parts of another sweep are refused with texts saying what to do.
#include "kscope/merge.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <tuple>

#include "sweep_fixture.hpp"

namespace kscope {
namespace {
using testing::run_sweep;
using testing::sweep_options;

Results shard(const std::string& dir, const char* share) {
  Options o = sweep_options(dir);
  o.shard = share;
  return run_sweep(o);
}

std::string merge_error(const std::vector<Results>& parts, const MergeOptions& options = {}) {
  try {
    (void)merge(parts, options);
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "no error";
}

TEST(MergeTest, TheSharesOfASweepJoinIntoTheWholeSweep) {
  const Results whole = run_sweep(sweep_options("merge_whole"));
  const Results joined = merge({shard("merge_0", "0/2"), shard("merge_1", "1/2")});
  EXPECT_TRUE(joined.complete());
  EXPECT_EQ(joined.metadata().shard_count, 1);
  testing::expect_same_tables(joined, whole);
}

// A shard as the cupti tool would have it: its phases (the session's), a timed kernel and a
// telemetry entry per measured run, and a finding, each of its own configs.
Results timed_shard(const std::string& dir, const char* share, std::size_t fail_at) {
  Options o = sweep_options(dir);
  o.shard = share;
  o.on_config_error = "skip";
  Results::Data d = run_sweep(o, fail_at).data();
  for (const auto& r : d.raw) {
    const auto at = static_cast<std::int64_t>(1000 * (r.config * 10 + r.run));
    d.timeline.kernels.push_back({r.annotation, "k", r.config, r.run, false, 0, 7u, at, at + 100});
    RunTelemetry t;
    t.config = r.config;
    t.run = r.run;
    d.telemetry.push_back(t);
  }
  Finding f;
  f.check = "memcheck";
  f.config = d.raw.front().config;
  d.findings.push_back(f);
  return Results(std::move(d));
}

using Span = std::tuple<std::string, std::optional<std::size_t>, std::optional<std::size_t>,
                        std::int64_t>;  // phase, config, run, start

std::multiset<Span> phases_of(const Timeline& t, std::size_t part) {
  std::multiset<Span> out;
  for (const auto& p : t.phases) {
    if (p.part == part) out.insert({p.phase, p.config, p.run, p.start_ns});
  }
  return out;
}

TEST(MergeTest, EveryPartsTimelineFindingsTelemetryAndFailuresAreKept) {
  const Results first = timed_shard("merge_kept_0", "0/2", testing::kSweepConfigs);
  const Results second = timed_shard("merge_kept_1", "1/2", 3);  // config 3 throws
  MergeOptions named;
  named.labels = {"s0.json", "s1.json"};
  const Results joined = merge({first, second}, named);
  const Timeline& t = joined.timeline();
  EXPECT_EQ(t.parts, (std::vector<std::string>{"rank 0: s0.json", "rank 1: s1.json"}));
  // Every kernel of each part, named by its part; configs are interleaved over the ranks.
  ASSERT_EQ(t.kernels.size(), first.timeline().kernels.size() + second.timeline().kernels.size());
  std::set<std::pair<std::size_t, std::size_t>> kernels;
  for (const auto& k : t.kernels) {
    EXPECT_EQ(k.part, k.config % 2) << "config " << k.config;
    kernels.insert({k.config, k.run});
  }
  for (const Results* part : {&first, &second}) {
    for (const auto& k : part->timeline().kernels) {
      EXPECT_EQ(kernels.count({k.config, k.run}), 1u) << k.config << "." << k.run;
    }
  }
  // Every phase of each part, journal writes (outside runs) among them.
  ASSERT_FALSE(first.timeline().phases.empty());
  EXPECT_EQ(phases_of(t, 0), phases_of(first.timeline(), 0));
  EXPECT_EQ(phases_of(t, 1), phases_of(second.timeline(), 0));
  EXPECT_EQ(t.phases.size(), first.timeline().phases.size() + second.timeline().phases.size());
  EXPECT_EQ(joined.telemetry().size(), first.telemetry().size() + second.telemetry().size());
  ASSERT_EQ(joined.findings().size(), 2u);
  EXPECT_EQ(joined.findings()[0].config, std::optional<std::size_t>(0));
  EXPECT_EQ(joined.findings()[1].config, std::optional<std::size_t>(1));
  ASSERT_EQ(joined.failed_configs().size(), 1u);
  EXPECT_EQ(joined.failed_configs()[0].config, 3u);
}

// `r` as tool `tool` would have it: ncu times no kernel in process; the sanitizer checks (its
// findings are the result). Written to `path` as JSON and read back, as `kscope merge` reads it.
Results as_file_of(const Results& r, const std::string& tool, const std::string& path) {
  Results::Data d = r.data();
  d.options.tool = tool;
  d.metadata.tool = tool;
  if (tool == "ncu") {
    d.timeline.kernels = {};
    d.metadata.duration_definition = "ncu";
  }
  if (tool == "sanitizer") {
    d.metadata.duration_definition.clear();
    for (auto& f : d.findings) f.kind = "Invalid __global__ write of size 4 bytes";
  }
  Results(std::move(d)).write_json(path);
  return Results::load(path);
}

TEST(MergeTest, TheShardsOfEveryToolKeepTheirTimelinesFindingsTelemetryAndFailuresThroughFiles) {
  for (const std::string tool : {"cupti", "ncu", "sanitizer"}) {
    const std::string dir = testing::scratch_dir("merge_files_" + tool);
    const Results first = as_file_of(timed_shard("merge_files_" + tool + "_0", "0/2",
                                                 testing::kSweepConfigs),
                                     tool, dir + "s0.json");
    const Results second = as_file_of(timed_shard("merge_files_" + tool + "_1", "1/2", 3), tool,
                                      dir + "s1.json");
    MergeOptions named;
    named.labels = {"s0.json", "s1.json"};
    const Results joined = merge({first, second}, named);
    joined.write_json(dir + "merged.json");
    const Results back = Results::load(dir + "merged.json");
    for (const Results* r : {&joined, &back}) {
      const Timeline& t = r->timeline();
      EXPECT_EQ(t.parts, (std::vector<std::string>{"rank 0: s0.json", "rank 1: s1.json"})) << tool;
      EXPECT_EQ(phases_of(t, 0), phases_of(first.timeline(), 0)) << tool;
      EXPECT_EQ(phases_of(t, 1), phases_of(second.timeline(), 0)) << tool;
      ASSERT_EQ(t.kernels.size(),
                first.timeline().kernels.size() + second.timeline().kernels.size()) << tool;
      EXPECT_EQ(t.kernels.empty(), tool == "ncu");
      for (const auto& k : t.kernels) EXPECT_EQ(k.part, k.config % 2) << tool;
      EXPECT_EQ(r->telemetry().size(), first.telemetry().size() + second.telemetry().size());
      ASSERT_EQ(r->findings().size(), 2u) << tool;
      EXPECT_EQ(r->findings()[1].config, std::optional<std::size_t>(1)) << tool;
      EXPECT_EQ(r->checked(), tool == "sanitizer");
      ASSERT_EQ(r->failed_configs().size(), 1u) << tool;
      EXPECT_EQ(r->failed_configs()[0].config, 3u) << tool;
      EXPECT_EQ(r->metadata().tool, tool);
    }
    EXPECT_EQ(back.to_json(), joined.to_json()) << tool;
  }
}

TEST(MergeTest, AMergedResultMergedAgainKeepsItsPartsNames) {
  MergeOptions gaps;
  gaps.allow_missing = true;
  gaps.labels = {"s0.json"};
  const Results once = merge({timed_shard("merge_again_0", "0/2", testing::kSweepConfigs)}, gaps);
  MergeOptions named;
  named.labels = {"half.json", "s1.json"};
  const Results twice =
      merge({once, timed_shard("merge_again_1", "1/2", testing::kSweepConfigs)}, named);
  EXPECT_EQ(twice.timeline().parts, (std::vector<std::string>{"rank 0: s0.json", "rank 1: s1.json"}));
  for (const auto& k : twice.timeline().kernels) EXPECT_EQ(k.part, k.config % 2);
}

TEST(MergeTest, AnOverlapKeepsTheFirstPartsSpansOfTheConfig) {
  const Results first = timed_shard("merge_overlap_t0", "0/2", testing::kSweepConfigs);
  const Results again = timed_shard("merge_overlap_t1", "0/2", testing::kSweepConfigs);
  const Results second = timed_shard("merge_overlap_t2", "1/2", testing::kSweepConfigs);
  MergeOptions overlap;
  overlap.allow_overlap = true;
  const Results joined = merge({first, again, second}, overlap);
  EXPECT_EQ(joined.timeline().parts,
            (std::vector<std::string>{"rank 0: part 1", "rank 0: part 2", "rank 1: part 3"}));
  for (const auto& k : joined.timeline().kernels) EXPECT_NE(k.part, 1u);
  for (const auto& p : joined.timeline().phases) {
    if (p.part == 1) {
      EXPECT_FALSE(p.config.has_value()) << p.phase;  // its journal writes only
    }
  }
  EXPECT_EQ(joined.findings().size(), 2u);
  EXPECT_EQ(joined.telemetry().size(), testing::kSweepConfigs * 3);
}

TEST(MergeTest, PartsWhoseDurationsHaveDifferentDefinitionsAreJoinedWithAWarning) {
  const Results first = shard("merge_definition_0", "0/2");
  const Results second = shard("merge_definition_1", "1/2");
  EXPECT_EQ(first.metadata().duration_definition, "activity");  // the cupti tool's default
  const Results same = merge({first, second});
  EXPECT_TRUE(same.load_warnings().empty()) << same.load_warnings().front();
  EXPECT_EQ(same.metadata().duration_definition, "activity");
  Results::Data other = second.data();
  other.metadata.duration_definition = "ncu";
  MergeOptions named;
  named.labels = {"rank0.json", "rank1.json"};
  const Results mixed = merge({first, Results(std::move(other))}, named);
  ASSERT_EQ(mixed.load_warnings().size(), 1u);
  EXPECT_EQ(mixed.load_warnings()[0],
            "the parts' durations were measured with different definitions: 'activity' "
            "('rank0.json'), 'ncu' ('rank1.json'). Compare their values with care "
            "(docs/tools/cupti.md#durations).");
  EXPECT_EQ(mixed.metadata().duration_definition, "mixed");
}

TEST(MergeTest, NoPartsIsRefused) {
  EXPECT_EQ(merge_error({}), "merge: no parts given; name the results to join.");
}

TEST(MergeTest, AConfigOfTwoPartsIsRefusedUnlessOverlapsAreAllowed) {
  const Results first = shard("merge_overlap_a", "0/2");
  const Results again = shard("merge_overlap_b", "0/2");
  const Results second = shard("merge_overlap_c", "1/2");
  MergeOptions named;
  named.labels = {"a.json", "b.json", "c.json"};
  EXPECT_EQ(merge_error({first, again, second}, named),
            "Cannot merge: config(s) 0, 2, 4 were measured by more than one part (config 0 by "
            "'a.json' and a later part). Merge each shard once, or allow overlaps "
            "(--allow-overlap) to keep the first part's.");
  named.allow_overlap = true;
  EXPECT_EQ(merge({first, again, second}, named).processed().size(), testing::kSweepConfigs);
}

TEST(MergeTest, AConfigOfNoPartIsRefusedUnlessGapsAreAllowed) {
  const Results first = shard("merge_gap", "0/2");
  EXPECT_EQ(merge_error({first}),
            "Cannot merge: no part measured config(s) 1, 3, 5 (config 1: n=1). Merge every "
            "shard of the sweep, or allow gaps (--allow-missing).");
  MergeOptions gaps;
  gaps.allow_missing = true;
  const Results partial = merge({first}, gaps);
  EXPECT_FALSE(partial.complete());
  for (const auto& p : partial.processed()) EXPECT_EQ(p.config % 2, 0u);
}

TEST(MergeTest, PartsOfAnotherSweepAreRefused) {
  const Results first = shard("merge_other_a", "0/2");
  Options o = sweep_options("merge_other_b");
  o.shard = "1/2";
  o.runs = 4;
  EXPECT_EQ(merge_error({first, testing::run_sweep(o)}),
            "Cannot merge part 2 with part 1: part 1 was written with runs=3, part 2 has "
            "runs=4. Merge the shards of one sweep.");
}

}  // namespace
}  // namespace kscope
