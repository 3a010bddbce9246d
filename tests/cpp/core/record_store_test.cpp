// RecordStore: a session's records, shared read-only with the journal's last line; a change
// after sharing never touches what the line reads.
#include "core/record_store.hpp"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "records.hpp"

namespace kscope {
namespace {

using testing::kernel;

TEST(RecordStoreTest, ASliceSharesTheStoresRecordsFromItsFirst) {
  RecordStore store(
      std::vector<KernelRecord>{kernel("k", "a", 0, 0, 1, 1), kernel("k", "b", 0, 1, 2, 2)});
  const RecordSlice slice = store.share(1);
  ASSERT_EQ(slice.size(), 1u);
  EXPECT_EQ(slice.begin(), &store[1]);  // the same record, not a copy
  EXPECT_EQ(slice[0].kernel, "b");
  EXPECT_TRUE(store.share(2).empty());
}

TEST(RecordStoreTest, AChangeAfterSharingLeavesTheSharedRecordsAsTheyWere) {
  RecordStore store(std::vector<KernelRecord>{kernel("k", "a", 0, 0, 1, 1)});
  const RecordSlice slice = store.share(0);
  store.push_back(kernel("k", "b", 0, 1, 2, 2));
  ASSERT_EQ(store.size(), 2u);
  EXPECT_EQ(store[1].kernel, "b");
  ASSERT_EQ(slice.size(), 1u);  // the line still reads the one record it was handed
  EXPECT_EQ(slice[0].kernel, "a");
  EXPECT_NE(slice.begin(), &store[0]);
}

TEST(RecordStoreTest, TakeMovesUnsharedRecordsAndCopiesSharedOnes) {
  RecordStore own(std::vector<KernelRecord>{kernel("k", "a", 0, 0, 1, 1)});
  const KernelRecord* first = &own[0];
  const std::vector<KernelRecord> taken = std::move(own).take();
  EXPECT_EQ(taken.data(), first);  // moved: the same storage

  RecordStore shared(std::vector<KernelRecord>{kernel("k", "a", 0, 0, 1, 1)});
  const RecordSlice slice = shared.share(0);
  const std::vector<KernelRecord> copied = std::move(shared).take();
  ASSERT_EQ(copied.size(), 1u);
  EXPECT_NE(copied.data(), slice.begin());
  EXPECT_EQ(slice[0].kernel, "a");
}

TEST(RecordStoreTest, ACopyIsItsOwn) {
  RecordStore a(std::vector<KernelRecord>{kernel("k", "a", 0, 0, 1, 1)});
  RecordStore b = a;
  b.push_back(kernel("k", "b", 0, 1, 2, 2));
  EXPECT_EQ(a.size(), 1u);
  EXPECT_EQ(b.size(), 2u);
  EXPECT_TRUE(RecordStore().empty());
  EXPECT_TRUE(RecordStore().share(0).empty());
}

}  // namespace
}  // namespace kscope
