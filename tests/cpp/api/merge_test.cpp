// kscope::merge (api/merge.cpp): the shards of one sweep join into the result of the whole
// sweep; overlaps, gaps and parts of another sweep are refused with texts saying what to do.
#include "kscope/merge.hpp"

#include <gtest/gtest.h>

#include <string>

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
