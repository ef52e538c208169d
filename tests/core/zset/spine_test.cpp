// The fueled spine (Trace over Spine): after every insert of a random run
// the trace holds what an eager spine holds (and what a plain Z-set does),
// no insert's merge work exceeds its budget, and the total work stays that
// of eager merging, about.
#include "freshet/zset/spine.h"

#include <gtest/gtest.h>

#include <random>

#include "freshet/zset/batch_builder.h"
#include "freshet/zset/merge.h"
#include "freshet/zset/trace.h"
#include "support/oracle.h"
#include "support/random_batches.h"
#include "support/zset_map.h"

namespace freshet {
namespace {

using testing::bigint_row;

// The spine as it was before fueling: the newest batch merges into its
// predecessor at once while at least half its size. Counts its merge work
// in the same units (entries in, at most).
struct EagerSpine {
  std::vector<BatchPtr> batches;
  uint64_t work = 0;
  void insert(BatchPtr batch) {
    batches.push_back(std::move(batch));
    while (batches.size() >= 2 && 2 * batches.back()->size() >= batches[batches.size() - 2]->size()) {
      work += batches.back()->size() + batches[batches.size() - 2]->size();
      BatchPtr merged = merge_batches(*batches[batches.size() - 2], *batches.back());
      batches.pop_back();
      if (merged->empty()) {
        batches.pop_back();
      } else {
        batches.back() = std::move(merged);
      }
    }
  }
};

bool same_entries(const Batch& a, const Batch& b) {
  if (a.size() != b.size() || a.key_count() != b.key_count()) return false;
  BatchCursor x(a), y(b);
  for (; x.valid() && y.valid(); x.next(), y.next()) {
    if (compare_entries(x, y) != 0 || x.weight() != y.weight()) return false;
  }
  return !x.valid() && !y.valid();
}

// Batch sizes spread over four orders of magnitude (small steps mostly, a
// big one now and then), keys with one value or many, a quarter deletes.
BatchPtr random_sized_batch(std::mt19937_64& random, int64_t keys, int64_t values) {
  const size_t size = random() % 8 == 0 ? random() % 20000 : random() % 4 == 0 ? random() % 500 : 1 + random() % 3;
  return testing::random_batch(random, size, keys, values);
}

void run_against_eager(uint64_t seed, int64_t keys, int64_t values, int inserts) {
  std::mt19937_64 random(seed);
  Trace trace;
  EagerSpine eager;
  testing::ZSetMap oracle;
  uint64_t fueled_work = 0, inserted = 0;
  for (int step = 0; step < inserts; ++step) {
    BatchPtr batch = random_sized_batch(random, keys, values);
    if (batch->empty()) continue;
    inserted += batch->size();
    testing::add_batch(oracle, *batch);
    trace.insert(batch);
    eager.insert(batch);
    const Trace::MergeWork work = trace.last_merge_work();
    ASSERT_LE(work.done, work.budget) << "step " << step << ", a batch of " << batch->size();
    fueled_work += work.done;
    ASSERT_TRUE(same_entries(*trace.consolidated(), *merge_all(eager.batches))) << "step " << step;
    ASSERT_LE(trace.batches().size(), 2 * Spine::level_of(trace.entry_count()) + 2) << "step " << step;
    if (step % 50 == 0) {
      ASSERT_EQ(testing::to_map(*trace.consolidated()), oracle) << "step " << step;
    }
  }
  // Amortised, fueling moves work to later steps but does not add to it.
  EXPECT_LE(fueled_work, 2 * eager.work + 16 * inserted) << "eager " << eager.work;
  std::printf("fueled merge work %llu, eager %llu, entries inserted %llu\n",
              static_cast<unsigned long long>(fueled_work), static_cast<unsigned long long>(eager.work),
              static_cast<unsigned long long>(inserted));
}

TEST(SpineTest, RandomRunEqualsTheEagerSpineWithinBudget) { run_against_eager(testing::test_seed(41), 30000, 0, 400); }

// A few hundred keys of a thousand values or more: slices stop inside keys.
TEST(SpineTest, KeysWithManyValues) { run_against_eager(testing::test_seed(43), 300, 5000, 250); }

// One-row inserts, the shape of a dashboard's changes: each does at most
// a slice of fuel per level (kFuelPerEntry units banked over a few
// inserts) and the small merges that run at once, never a merge of the
// whole trace.
TEST(SpineTest, SingleRowInsertsDoBoundedWorkEach) {
  Trace trace;
  uint64_t most = 0;
  for (int64_t i = 0; i < 100000; ++i) {
    BatchBuilder builder;
    builder.add_row(RowRef(bigint_row(i * 7919 % 100003)), 1);
    trace.insert(builder.finish());
    most = std::max(most, trace.last_merge_work().done);
    ASSERT_LE(trace.last_merge_work().done, trace.last_merge_work().budget) << "insert " << i;
  }
  EXPECT_LE(most, (Spine::kFuelSlice + Spine::kFuelPerEntry) * 20 + (uint64_t{2} << Spine::kEagerLevels));
  EXPECT_EQ(trace.consolidated()->size(), 100000u);
}

size_t memory_of(const std::vector<BatchPtr>& batches) {
  size_t total = 0;
  for (const BatchPtr& b : batches) total += b->memory_bytes();
  return total;
}

// The user-shaped run on one trace: a big load in one insert, then
// single-row inserts. A merge in progress holds the part of its output it
// has written (the rest of the room reserved at its start is not touched,
// and what cancelled entries leave is given back when it completes): the
// trace holds about what the eager spine holds (its inputs stay until it
// completes, where the eager spine would have merged at once).
TEST(SpineTest, MergesInProgressHoldAboutWhatTheEagerSpineHolds) {
  Trace trace;
  EagerSpine eager;
  BatchBuilder load;
  for (int64_t i = 0; i < 200000; ++i) load.add_row(RowRef(bigint_row(2 * i)), 1);
  BatchPtr loaded = load.finish();
  trace.insert(loaded);
  eager.insert(loaded);
  double worst = 0;
  for (int64_t i = 0; i < 100000; ++i) {
    BatchBuilder builder;
    builder.add_row(RowRef(bigint_row(2 * (i * 7919 % 200000) + 1)), 1);
    BatchPtr batch = builder.finish();
    trace.insert(batch);
    eager.insert(batch);
    if (i % 1000 == 999) {
      const double ratio = static_cast<double>(trace.memory_bytes()) / static_cast<double>(memory_of(eager.batches));
      worst = std::max(worst, ratio);
    }
  }
  const double last = static_cast<double>(trace.memory_bytes()) / static_cast<double>(memory_of(eager.batches));
  std::printf("fueled / eager memory: %.3f at the end, %.3f at worst\n", last, worst);
  EXPECT_LE(worst, 1.35) << "a merge in progress counts more than it has written";
}

// merging_bytes() is counted when first asked after a merge started,
// advanced or ended, and kept until the next: it still follows every slice
// of work the merges in progress do (a count left stale would stand still
// while they write), and after a clear it counts no merge.
TEST(SpineTest, MergingBytesFollowTheMergesInProgress) {
  Spine spine;
  BatchBuilder load;
  for (int64_t i = 0; i < 200000; ++i) load.add_row(RowRef(bigint_row(2 * i)), 1);
  spine.insert(load.finish());
  const size_t idle = spine.merging_bytes();
  size_t grew = 0, most = idle, previous = idle;
  for (int64_t i = 0; i < 20000; ++i) {
    BatchBuilder builder;
    builder.add_row(RowRef(bigint_row(2 * (i * 7919 % 200000) + 1)), 1);
    spine.insert(builder.finish());
    const size_t now = spine.merging_bytes();
    ASSERT_EQ(now, spine.recount_merging_bytes()) << "insert " << i;
    if (now > previous) ++grew;
    most = std::max(most, now);
    previous = now;
  }
  EXPECT_GT(grew, 500u) << "the merges' partial outputs grow slice by slice";
  EXPECT_GT(most, idle + 10000);
  spine.clear();
  EXPECT_LE(spine.merging_bytes(), idle);
}

// The kept count is marked stale only where the levels' merges change
// (started, advanced, ended): batches of every size, each insert checked.
TEST(SpineTest, MergingBytesKeptEqualACountAfresh) {
  std::mt19937_64 random(testing::test_seed(59));
  Spine spine;
  for (int step = 0; step < 1000; ++step) {
    BatchPtr batch = random_sized_batch(random, 30000, step % 2 == 0 ? 0 : 500);
    if (batch->empty()) continue;
    spine.insert(batch);
    ASSERT_EQ(spine.merging_bytes(), spine.recount_merging_bytes()) << "step " << step;
  }
  std::vector<BatchPtr> batches;
  spine.collect(batches);
  Spine placed;
  for (const BatchPtr& batch : batches) {
    placed.place(batch);
    ASSERT_EQ(placed.merging_bytes(), placed.recount_merging_bytes());
  }
  spine.clear();
  EXPECT_EQ(spine.merging_bytes(), spine.recount_merging_bytes());
}

// The bytes the spine keeps count of as batches enter and leave its levels
// are those of the batches a reader sees, after every insert (merges that
// complete, roll-ups, eager merges), a restore and a clear.
TEST(SpineTest, BatchBytesAreTheCollectedBatchesBytes) {
  std::mt19937_64 random(testing::test_seed(53));
  Spine spine;
  std::vector<BatchPtr> batches;
  for (int step = 0; step < 300; ++step) {
    BatchPtr batch = random_sized_batch(random, 30000, step % 2 == 0 ? 0 : 500);
    if (batch->empty()) continue;
    spine.insert(batch);
    spine.collect(batches);
    ASSERT_EQ(spine.batch_bytes(), memory_of(batches)) << "step " << step;
  }
  Spine placed;
  for (const BatchPtr& batch : batches) placed.place(batch);
  std::vector<BatchPtr> again;
  placed.collect(again);
  EXPECT_EQ(placed.batch_bytes(), memory_of(again));
  EXPECT_EQ(placed.batch_bytes(), memory_of(batches));
  placed.clear();
  EXPECT_EQ(placed.batch_bytes(), 0u);
}

// Single-row inserts (and two-entry upserts: a delete and an insert of one
// key) go through the small tiers: a reader never sees more than
// (kSmallFanIn - 1) batches a tier below level kEagerLevels, the bytes kept
// are those of the batches collected, and each insert's eager merges read
// at most eager_cascade_work() entries besides its fuel's work.
TEST(SpineTest, SmallTiersBoundTheBatchesReadersSee) {
  Spine spine;
  std::vector<BatchPtr> batches;
  testing::ZSetMap oracle;
  size_t most_small = 0;
  for (int64_t i = 0; i < 5000; ++i) {
    BatchBuilder builder;
    if (i % 3 == 2) {
      // An upsert of the key inserted before: its old row out, a new one in.
      const int64_t key = (i - 1) * 7919 % 1009;
      builder.add(RowRef(bigint_row(key)), RowRef(bigint_row(i - 1)), -1);
      builder.add(RowRef(bigint_row(key)), RowRef(bigint_row(i)), 1);
    } else {
      const int64_t key = i * 7919 % 1009;
      builder.add(RowRef(bigint_row(key)), RowRef(bigint_row(i)), 1);
    }
    BatchPtr batch = builder.finish();
    testing::add_batch(oracle, *batch);
    spine.insert(batch);
    spine.collect(batches);
    ASSERT_EQ(spine.batch_bytes(), memory_of(batches)) << "insert " << i;
    ASSERT_LE(spine.small_batch_count(), (Spine::kSmallFanIn - 1) * Spine::kSmallTiers) << "insert " << i;
    ASSERT_LE(spine.last_work(), spine.last_budget()) << "insert " << i;
    // The small batches come last (largest levels first).
    for (size_t b = batches.size() - spine.small_batch_count(); b < batches.size(); ++b) {
      ASSERT_LT(batches[b]->size(), size_t{1} << (Spine::kEagerLevels + 1)) << "insert " << i;
    }
    most_small = std::max(most_small, spine.small_batch_count());
  }
  EXPECT_GT(most_small, Spine::kSmallFanIn - 1);  // more than one tier held batches
  ASSERT_EQ(testing::to_map(*merge_all(batches)), oracle);
}

// A checkpoint's batches come back as they were, and inserts after the
// restore keep merging them correctly.
TEST(SpineTest, RestoredSpineKeepsMerging) {
  std::mt19937_64 random(testing::test_seed(47));
  Trace trace;
  EagerSpine eager;
  for (int step = 0; step < 120; ++step) {
    BatchPtr batch = random_sized_batch(random, 30000, 0);
    if (batch->empty()) continue;
    trace.insert(batch);
    eager.insert(batch);
    if (step % 30 == 29) {
      Trace restored;
      restored.restore(trace.batches());
      ASSERT_EQ(restored.batches().size(), trace.batches().size());
      trace = std::move(restored);
    }
    ASSERT_TRUE(same_entries(*trace.consolidated(), *merge_all(eager.batches))) << "step " << step;
  }
}

}  // namespace
}  // namespace freshet
