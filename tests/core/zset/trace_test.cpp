#include "freshet/zset/trace.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <random>

#include "freshet/circuit/work_meter.h"
#include "freshet/zset/batch_builder.h"
#include "support/oracle.h"
#include "support/random_batches.h"

namespace freshet {
namespace {

using testing::bigint_row;

TEST(TraceTest, SpineStaysLogarithmic) {
  Trace trace;
  for (int64_t i = 0; i < 4096; ++i) {
    BatchBuilder builder;
    builder.add_row(RowRef(bigint_row(i)), 1);
    trace.insert(builder.finish());
    // At most two batches a level (a merge in progress), levels doubling.
    EXPECT_LE(trace.batches().size(), 2 * Spine::level_of(static_cast<size_t>(i + 1)) + 2);
  }
  EXPECT_LE(trace.batches().size(), 26u);
  EXPECT_EQ(trace.consolidated()->size(), 4096u);
}

TEST(TraceTest, CancelledUpdatesDisappear) {
  Trace trace;
  for (int round = 0; round < 100; ++round) {
    BatchBuilder builder;
    builder.add_row(RowRef(bigint_row(round / 2 % 7)), round % 2 ? -1 : 1);  // insert, then delete
    trace.insert(builder.finish());
    // The pair merges away once the next insert fuels its merge.
    EXPECT_LE(trace.entry_count(), 3u) << "round " << round;
  }
  EXPECT_TRUE(trace.consolidated()->empty());
}

// Under a step's memory meter (step_memory.h), what a merge in progress
// writes is charged: the state grows by it during the step, and a budget
// must not be passed by merges alone.
TEST(TraceTest, MergeGrowthIsChargedToTheActiveMeter) {
  Trace trace;
  auto batch_of = [](int64_t begin, int64_t count, int64_t stride) {
    BatchBuilder builder;
    for (int64_t i = 0; i < count; ++i) builder.add_row(RowRef(bigint_row(begin + i * stride)), 1);
    return builder.finish();
  };
  // Two batches of one level above the eager ones: a merge starts, fueled by what follows.
  trace.insert(batch_of(0, 4096, 2));
  trace.insert(batch_of(1, 4096, 2));
  std::vector<BatchPtr> singles;
  for (int64_t i = 0; i < 600; ++i) singles.push_back(batch_of(100000 + i, 1, 1));  // built outside the meter
  const size_t before = trace.memory_bytes();
  WorkMeter meter(UINT64_MAX, 16 * 1024);
  {
    ScopedWorkMeter active(&meter);
    for (const BatchPtr& single : singles) trace.insert(single);
  }
  size_t inserted = 0;
  for (const BatchPtr& single : singles) inserted += single->memory_bytes();
  EXPECT_GT(meter.bytes(), 0u);
  EXPECT_GE(meter.bytes() + inserted + 4096, trace.memory_bytes() - before) << "growth not charged";
  EXPECT_TRUE(meter.exceeded()) << "4,800 merged entries fit 16 KiB?";
  EXPECT_EQ(trace.consolidated()->size(), 8192u + 600u);
}

TEST(TraceTest, KeyCursorSumsAcrossBatchesInOrder) {
  std::mt19937_64 random(testing::test_seed(17));
  Trace trace;
  testing::ZSetMap expected;
  for (int round = 0; round < 300; ++round) {
    BatchBuilder builder;
    for (int i = 0; i < 5; ++i) {
      std::string key = bigint_row(static_cast<int64_t>(random() % 4));
      std::string value = bigint_row(static_cast<int64_t>(random() % 20));
      Weight weight = std::uniform_int_distribution<int>(-1, 1)(random);
      builder.add(RowRef(key), RowRef(value), weight);
      if (weight) testing::add_entry(expected, key, value, weight);
    }
    trace.insert(builder.finish());
    for (int64_t k = 0; k < 4; ++k) {
      std::string key = bigint_row(k);
      testing::ZSetMap seen;
      std::string previous;
      for (Trace::KeyCursor c = trace.seek(RowRef(key)); c.valid(); c.next()) {
        EXPECT_NE(c.weight(), 0);
        EXPECT_TRUE(previous.empty() || previous < c.value().to_bytes());
        previous = c.value().to_bytes();
        seen[{key, previous}] = c.weight();
        EXPECT_EQ(trace.weight_of(RowRef(key), c.value()), c.weight());
      }
      testing::ZSetMap expected_for_key;
      for (const auto& [entry, weight] : expected) {
        if (entry.first == key) expected_for_key[entry] = weight;
      }
      ASSERT_EQ(seen, expected_for_key) << "round " << round;
    }
  }
}

// seek_last() walks a key's live values as seek() does, from the last: in
// one batch or several, with weights that cancel across them.
TEST(TraceTest, SeekLastWalksTheSameValuesBackward) {
  std::mt19937_64 random(testing::test_seed(19));
  Trace trace;
  auto entries_of = [](Trace::KeyCursor c) {
    std::vector<std::pair<std::string, Weight>> out;
    for (; c.valid(); c.next()) out.emplace_back(c.value().to_bytes(), c.weight());
    return out;
  };
  for (int round = 0; round < 300; ++round) {
    BatchBuilder builder;
    for (int i = 0; i < 5; ++i) {
      std::string key = bigint_row(static_cast<int64_t>(random() % 4));
      std::string value = bigint_row(static_cast<int64_t>(random() % 20));
      builder.add(RowRef(key), RowRef(value), std::uniform_int_distribution<int>(-1, 1)(random));
    }
    trace.insert(builder.finish());
    for (int64_t k = 0; k < 5; ++k) {
      std::string key = bigint_row(k);
      auto forward = entries_of(trace.seek(RowRef(key)));
      auto backward = entries_of(trace.seek_last(RowRef(key)));
      std::reverse(backward.begin(), backward.end());
      ASSERT_EQ(backward, forward) << "round " << round << ", key " << k;
    }
  }
}

// Ascending seeks sharing a finger see what fresh seeks see, whatever the
// gaps between keys and however many batches the spine has.
TEST(TraceTest, SeeksWithAFingerMatchFreshSeeks) {
  std::mt19937_64 random(testing::test_seed(23));
  Trace trace;
  auto entries_of = [](Trace::KeyCursor c) {
    std::vector<std::pair<std::string, Weight>> out;
    for (; c.valid(); c.next()) out.emplace_back(c.value().to_bytes(), c.weight());
    return out;
  };
  for (int round = 0; round < 60; ++round) {
    BatchBuilder builder;
    int count = 1 + static_cast<int>(random() % 200);
    for (int i = 0; i < count; ++i) {
      builder.add(RowRef(bigint_row(static_cast<int64_t>(random() % 1000))),
                  RowRef(bigint_row(static_cast<int64_t>(random() % 3))),
                  std::uniform_int_distribution<int>(-1, 1)(random));
    }
    trace.insert(builder.finish());
    // A sorted sample of probe keys, sparse or dense, in byte order.
    std::vector<std::string> probes;
    int probe_count = 1 + static_cast<int>(random() % 300);
    for (int i = 0; i < probe_count; ++i) probes.push_back(bigint_row(static_cast<int64_t>(random() % 1100)));
    std::sort(probes.begin(), probes.end());
    std::vector<size_t> finger;
    for (const std::string& probe : probes) {
      ASSERT_EQ(entries_of(trace.seek(RowRef(probe), finger)), entries_of(trace.seek(RowRef(probe)))) << "round " << round;
    }
  }
}

// A trace collects its list of batches when first read after an insert
// (most traces a step inserts into are not read in it): reads after any run
// of unread inserts see the whole trace.
TEST(TraceTest, ReadsAfterUnreadInsertsSeeTheWholeTrace) {
  std::mt19937_64 random(testing::test_seed(29));
  Trace trace;
  std::map<std::string, Weight> expected;
  for (int round = 0; round < 3000; ++round) {
    BatchBuilder builder;
    const int count = round % 500 == 0 ? 700 : 1 + static_cast<int>(random() % 3);
    for (int i = 0; i < count; ++i) {
      const std::string row = bigint_row(static_cast<int64_t>(random() % 5000));
      const Weight weight = random() % 4 == 0 ? -1 : 1;
      builder.add_row(RowRef(row), weight);
      expected[row] += weight;
    }
    trace.insert(builder.finish());
    if (random() % 7 != 0) continue;  // read after about one insert in seven
    std::map<std::string, Weight> seen;
    for (const BatchPtr& batch : trace.batches()) {
      for (size_t k = 0; k < batch->key_count(); ++k) {
        for (size_t v = batch->values_begin(k); v < batch->values_end(k); ++v) seen[batch->key(k).to_bytes()] += batch->weight(v);
      }
    }
    std::erase_if(seen, [](const auto& entry) { return entry.second == 0; });
    std::map<std::string, Weight> live = expected;
    std::erase_if(live, [](const auto& entry) { return entry.second == 0; });
    ASSERT_EQ(seen, live) << "round " << round;
    ASSERT_EQ(trace.consolidated()->size(), live.size()) << "round " << round;
  }
}

// Nor does an unread trace's list keep alive the large batches its merges
// replaced: their memory would stay held, uncounted, until the next read.
TEST(TraceTest, AnUnreadTraceHoldsNoLargeBatchItsMergesReplaced) {
  Trace trace;
  int64_t next = 0;
  auto insert_rows = [&](int count) {
    for (int i = 0; i < count; ++i) {
      BatchBuilder builder;
      builder.add_row(RowRef(bigint_row(next++)), 1);
      trace.insert(builder.finish());
    }
  };
  insert_rows(1000);
  std::vector<std::weak_ptr<const Batch>> large;
  for (const BatchPtr& batch : trace.batches()) {
    if (batch->size() >= size_t{1} << Spine::kEagerLevels) large.push_back(batch);
  }
  ASSERT_FALSE(large.empty());
  insert_rows(5000);  // every level of the first read merges on, unread
  for (const std::weak_ptr<const Batch>& batch : large) EXPECT_TRUE(batch.expired());
  EXPECT_EQ(trace.consolidated()->size(), 6000u);
}

}  // namespace
}  // namespace freshet
