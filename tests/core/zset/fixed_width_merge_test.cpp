// merge_fixed_width_many: the merge of batches of rows of one width equals
// the general merge (merge_many), builds a well-formed batch, and counts
// one unit of work per entry read; it declines rows of several widths.
#include "freshet/zset/fixed_width_merge.h"

#include <gtest/gtest.h>

#include <random>

#include "freshet/zset/batch_builder.h"
#include "freshet/zset/merge.h"
#include "support/oracle.h"
#include "support/random_batches.h"
#include "support/zset_map.h"

namespace freshet {
namespace {

using testing::bigint_row;
using testing::random_batch;

// Sorted keys, sorted values within a key, no zero weight; every key found.
void expect_well_formed(const Batch& batch) {
  for (size_t k = 0; k < batch.key_count(); ++k) {
    if (k > 0) {
      EXPECT_LT(compare_rows(batch.key(k - 1), batch.key(k)), 0);
    }
    ASSERT_LT(batch.values_begin(k), batch.values_end(k));
    for (size_t v = batch.values_begin(k); v < batch.values_end(k); ++v) {
      EXPECT_NE(batch.weight(v), 0);
      if (v > batch.values_begin(k)) {
        EXPECT_LT(compare_rows(batch.value(v - 1), batch.value(v)), 0);
      }
    }
    EXPECT_EQ(batch.find(batch.key(k)), std::optional<size_t>(k));
  }
  EXPECT_EQ(batch.values_begin(batch.key_count()), batch.size());
}

// The k-way merge of a spine's small tiers: 2 to 16 batches, tiny to a few
// hundred entries, keys shared or not, values one or many; the sum is the
// general merge's, the batch well formed, the work one unit per entry read.
TEST(FixedWidthMergeTest, ManyBatchesMergeAsTheGeneralMergeDoes) {
  std::mt19937_64 random(testing::test_seed(59));
  for (int round = 0; round < 400; ++round) {
    const int64_t keys = 1 + static_cast<int64_t>(random() % (random() % 2 ? 8 : 2000));
    const int64_t values = random() % 3 == 0 ? 0 : 1 + static_cast<int64_t>(random() % 20);
    const size_t count = 2 + random() % 15;
    std::vector<BatchPtr> batches;
    size_t entries = 0;
    while (batches.size() < count) {
      BatchPtr b = random_batch(random, 1 + random() % (random() % 4 == 0 ? 300 : 4), keys, values);
      if (b->empty()) continue;
      entries += b->size();
      batches.push_back(b);
    }
    uint64_t work = 0;
    BatchPtr merged = merge_fixed_width_many(batches.data(), batches.size(), work);
    ASSERT_TRUE(merged) << "round " << round;
    ASSERT_EQ(testing::to_map(*merged), testing::to_map(*merge_many(batches))) << "round " << round;
    expect_well_formed(*merged);
    EXPECT_EQ(work, entries);
  }
}

TEST(FixedWidthMergeTest, ManyBatchesThatCancelLeaveTheEmptyBatch) {
  std::vector<BatchPtr> batches;
  for (int64_t i = 0; i < 4; ++i) {
    BatchBuilder builder;
    builder.add(RowRef(bigint_row(i / 2)), RowRef(bigint_row(7)), i % 2 == 0 ? 1 : -1);
    batches.push_back(builder.finish());
  }
  uint64_t work = 0;
  BatchPtr merged = merge_fixed_width_many(batches.data(), batches.size(), work);
  ASSERT_TRUE(merged);
  EXPECT_TRUE(merged->empty());
  BatchBuilder builder;
  builder.add_row(RowRef(std::string("abc")), 1);
  batches.push_back(builder.finish());  // another width: declined
  EXPECT_FALSE(merge_fixed_width_many(batches.data(), batches.size(), work));
}

TEST(FixedWidthMergeTest, DeclinesRowsOfSeveralWidths) {
  BatchBuilder builder;
  builder.add_row(RowRef(std::string("ab")), 1);
  builder.add_row(RowRef(std::string("abc")), 1);
  BatchPtr varied = builder.finish();
  builder.add_row(RowRef(std::string("xy")), 1);
  BatchPtr two = builder.finish();
  builder.add_row(RowRef(std::string("xyz")), 1);
  BatchPtr three = builder.finish();
  uint64_t work = 0;
  const BatchPtr varied_two[] = {varied, two}, two_three[] = {two, three};
  EXPECT_FALSE(merge_fixed_width_many(varied_two, 2, work));
  EXPECT_FALSE(merge_fixed_width_many(two_three, 2, work));  // one width each, not the same
  EXPECT_EQ(work, 0u);
  BatchBuilder again;
  again.add_row(RowRef(std::string("cd")), 1);
  const BatchPtr two_other[] = {two, again.finish()};
  BatchPtr merged = merge_fixed_width_many(two_other, 2, work);
  ASSERT_TRUE(merged);
  EXPECT_EQ(merged->key_count(), 2u);
}

}  // namespace
}  // namespace freshet
