// FueledMerge: a merge done in slices of any size equals the merge done at
// once, and no slice does more work than its fuel.
#include "freshet/zset/fueled_merge.h"

#include <gtest/gtest.h>

#include <random>

#include "freshet/zset/batch_builder.h"
#include "freshet/zset/merge.h"
#include "support/oracle.h"
#include "support/random_batches.h"
#include "support/zset_map.h"

namespace freshet {
namespace {

using testing::random_batch;

TEST(FueledMergeTest, SlicesOfAnySizeMergeAsOneMergeDoes) {
  std::mt19937_64 random(testing::test_seed(31));
  for (int round = 0; round < 300; ++round) {
    const int64_t keys = 1 + static_cast<int64_t>(random() % 200);
    const int64_t values = static_cast<int64_t>(random() % 3) == 0 ? 0 : 1 + static_cast<int64_t>(random() % 300);
    BatchPtr a = random_batch(random, random() % 600, keys, values);
    BatchPtr b = random_batch(random, random() % 600, keys, values);
    testing::ZSetMap expected = testing::to_map(*a);
    testing::add_batch(expected, *b);

    FueledMerge merge(*a, *b);
    uint64_t total = 0;
    const uint64_t remaining_at_start = merge.remaining();
    ASSERT_EQ(remaining_at_start, a->size() + b->size());
    while (!merge.done()) {
      const uint64_t fuel = 1 + random() % (random() % 2 ? 4 : 200);
      const uint64_t before = merge.remaining();
      const uint64_t spent = merge.work(fuel);
      ASSERT_LE(spent, fuel);
      ASSERT_GT(spent, 0u) << "a slice made no progress";
      ASSERT_LE(merge.remaining(), before - spent) << "work counted that consumed nothing";
      total += spent;
    }
    EXPECT_LE(total, remaining_at_start);
    BatchPtr merged = merge.finish();
    ASSERT_EQ(testing::to_map(*merged), expected) << "round " << round;
    // The whole-merge path (merge_batches) builds the very same batch.
    EXPECT_EQ(testing::to_map(*merge_batches(*a, *b)), expected);
  }
}

}  // namespace
}  // namespace freshet
