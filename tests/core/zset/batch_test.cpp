#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "freshet/zset/batch_builder.h"
#include "freshet/zset/cursor.h"
#include "freshet/zset/merge.h"
#include "support/oracle.h"
#include "support/random_batches.h"

namespace freshet {
namespace {

using testing::ZSetMap;

using testing::bigint_row;

TEST(BatchBuilderTest, SortsAndConsolidates) {
  BatchBuilder builder;
  builder.add(RowRef(bigint_row(2)), RowRef(bigint_row(20)), 1);
  builder.add(RowRef(bigint_row(1)), RowRef(bigint_row(10)), 1);
  builder.add(RowRef(bigint_row(2)), RowRef(bigint_row(20)), 2);
  builder.add(RowRef(bigint_row(1)), RowRef(bigint_row(11)), 1);
  builder.add(RowRef(bigint_row(1)), RowRef(bigint_row(10)), -1);  // cancels
  builder.add(RowRef(bigint_row(3)), RowRef(bigint_row(30)), 0);   // ignored
  BatchPtr batch = builder.finish();
  ASSERT_EQ(batch->key_count(), 2u);
  EXPECT_EQ(batch->size(), 2u);
  EXPECT_EQ(batch->weight_of(RowRef(bigint_row(2)), RowRef(bigint_row(20))), 3);
  EXPECT_EQ(batch->weight_of(RowRef(bigint_row(1)), RowRef(bigint_row(11))), 1);
  EXPECT_EQ(batch->weight_of(RowRef(bigint_row(1)), RowRef(bigint_row(10))), 0);
  EXPECT_TRUE(builder.empty());
}

TEST(BatchBuilderTest, EverythingCancelledGivesTheEmptyBatch) {
  BatchBuilder builder;
  builder.add_row(RowRef(bigint_row(1)), 1);
  builder.add_row(RowRef(bigint_row(1)), -1);
  EXPECT_TRUE(builder.finish()->empty());
}

TEST(BatchBuilderTest, MatchesAMapOnRandomInput) {
  std::mt19937_64 random(testing::test_seed(11));
  for (int round = 0; round < 50; ++round) {
    BatchBuilder builder;
    ZSetMap expected;
    int n = std::uniform_int_distribution<int>(0, 400)(random);
    for (int i = 0; i < n; ++i) {
      // Variable-length keys (sometimes with long shared prefixes) and values.
      std::string key(std::uniform_int_distribution<int>(0, 12)(random), 'k');
      if (!key.empty()) key.back() = static_cast<char>('a' + random() % 4);
      std::string value = bigint_row(static_cast<int64_t>(random() % 5));
      if (random() % 3 == 0) value.clear();
      Weight weight = std::uniform_int_distribution<int>(-2, 2)(random);
      builder.add(RowRef(key), RowRef(value), weight);
      if (weight != 0) testing::add_entry(expected, key, value, weight);
    }
    BatchPtr batch = builder.finish();
    EXPECT_EQ(testing::to_map(*batch), expected);
    // Invariants: strictly increasing (key, value), no zero weights.
    for (BatchCursor c(*batch); c.valid(); c.next()) EXPECT_NE(c.weight(), 0);
    for (size_t k = 1; k < batch->key_count(); ++k) EXPECT_LT(compare_rows(batch->key(k - 1), batch->key(k)), 0);
    for (size_t k = 0; k < batch->key_count(); ++k) {
      EXPECT_LT(batch->values_begin(k), batch->values_end(k));
      for (size_t v = batch->values_begin(k) + 1; v < batch->values_end(k); ++v) {
        EXPECT_LT(compare_rows(batch->value(v - 1), batch->value(v)), 0);
      }
    }
  }
}

// finish() compares prefixes taken past the bytes every key (value) shares:
// rows that all start alike, end inside that shared part, or differ only in
// zero bytes or length must still come out in byte order.
TEST(BatchBuilderTest, RowsSharingLongPrefixesSortInByteOrder) {
  std::mt19937_64 random(testing::test_seed(12));
  for (int round = 0; round < 60; ++round) {
    std::string header(std::uniform_int_distribution<int>(0, 20)(random), 'h');
    auto tail = [&] {
      std::string bytes(std::uniform_int_distribution<int>(0, 10)(random), '\0');
      for (char& c : bytes) c = static_cast<char>(random() % 3);  // zero bytes, often
      return bytes;
    };
    BatchBuilder builder;
    ZSetMap expected;
    int n = std::uniform_int_distribution<int>(1, 300)(random);
    for (int i = 0; i < n; ++i) {
      std::string key = header + tail(), value = header + tail();
      Weight weight = std::uniform_int_distribution<int>(-2, 2)(random);
      builder.add(RowRef(key), RowRef(value), weight);
      if (weight != 0) testing::add_entry(expected, key, value, weight);
    }
    BatchPtr batch = builder.finish();
    EXPECT_EQ(testing::to_map(*batch), expected);
    for (size_t k = 1; k < batch->key_count(); ++k) EXPECT_LT(compare_rows(batch->key(k - 1), batch->key(k)), 0);
    for (size_t k = 0; k < batch->key_count(); ++k) {
      for (size_t v = batch->values_begin(k) + 1; v < batch->values_end(k); ++v) {
        EXPECT_LT(compare_rows(batch->value(v - 1), batch->value(v)), 0);
      }
    }
  }
}

// The bulk appends build what entries appended one by one build: keys and
// rows of fixed widths back to back (after a key with two values too), and
// a keyed batch's values as a Z-set's keys.
TEST(SortedBatchBuilderTest, BulkAppendsBuildWhatOneByOneBuilds) {
  std::string keys, values;
  for (int64_t i = 10; i < 5000; ++i) {
    keys += bigint_row(i);
    values += bigint_row(i * 3);
  }
  const uint32_t width = static_cast<uint32_t>(bigint_row(0).size());
  const size_t count = keys.size() / width;
  auto at = [](const std::string& bytes, size_t i, uint32_t w) {
    return RowRef(reinterpret_cast<const uint8_t*>(bytes.data()) + i * w, w);
  };
  for (bool two_values_first : {false, true}) {
    SortedBatchBuilder bulk, one_by_one;
    for (SortedBatchBuilder* builder : {&bulk, &one_by_one}) {
      builder->append_key(RowRef(bigint_row(1)));
      builder->append_value(RowRef(bigint_row(7)), 1);
      if (two_values_first) builder->append_value(RowRef(bigint_row(8)), -2);
    }
    bulk.append_fixed_entries(reinterpret_cast<const uint8_t*>(keys.data()), width,
                              reinterpret_cast<const uint8_t*>(values.data()), width, count);
    for (size_t i = 0; i < count; ++i) {
      one_by_one.append_key(at(keys, i, width));
      one_by_one.append_value(at(values, i, width), 1);
    }
    BatchPtr a = bulk.finish(), b = one_by_one.finish();
    ASSERT_EQ(testing::to_map(*a), testing::to_map(*b));
    ASSERT_EQ(a->key_count(), count + 1);
    EXPECT_EQ(a->values_end(5) - a->values_begin(5), 1u);

    SortedBatchBuilder rows, rows_one_by_one;
    rows.append_values_as_keys(*a);
    for (size_t v = 0; v < a->size(); ++v) {
      rows_one_by_one.append_key(a->value(v));
      rows_one_by_one.append_value(RowRef(), a->weight(v));
    }
    BatchPtr c = rows.finish(), d = rows_one_by_one.finish();
    ASSERT_EQ(testing::to_map(*c), testing::to_map(*d));
    EXPECT_EQ(c->key_count(), a->size());
  }
}

TEST(BatchTest, SeeksKeys) {
  BatchBuilder builder;
  for (int64_t k = 0; k < 100; k += 2) builder.add_row(RowRef(bigint_row(k)), 1);
  BatchPtr batch = builder.finish();
  EXPECT_TRUE(batch->find(RowRef(bigint_row(42))).has_value());
  EXPECT_FALSE(batch->find(RowRef(bigint_row(43))).has_value());
  BatchCursor cursor(*batch);
  cursor.seek_key(RowRef(bigint_row(51)));
  ASSERT_TRUE(cursor.valid());
  EXPECT_EQ(cursor.key().to_bytes(), bigint_row(52));
  cursor.seek_key(RowRef(bigint_row(1000)));
  EXPECT_FALSE(cursor.valid());
}

TEST(BatchTest, SeekForwardFindsWhatLowerBoundFinds) {
  // Keys 0, 3, 6, ... in byte order (a BIGINT's bytes sort as its value:
  // types/ordered_int.h); every probe key from every start, and starts past it.
  BatchBuilder builder;
  for (int64_t k = 0; k < 300; k += 3) builder.add_row(RowRef(bigint_row(k)), 1);
  BatchPtr batch = builder.finish();
  for (int64_t probe = -1; probe <= 301; ++probe) {
    std::string bytes = bigint_row(probe);
    for (size_t from = 0; from <= batch->key_count(); ++from) {
      ASSERT_EQ(batch->seek_forward(RowRef(bytes), from), batch->lower_bound(RowRef(bytes), from))
          << "probe " << probe << " from " << from;
    }
  }
}

// The fence (batch.h) narrows a lookup in a big batch: lower_bound() must
// find what a plain binary search finds, for keys of every shape — BIGINTs
// (whose bytes share a long start), strings of many lengths that share a
// prefix longer than 8 bytes, one a prefix of another, probes before, after
// and between the keys and outside their common prefix.
TEST(BatchTest, TheFenceFindsWhatABinarySearchFinds) {
  std::mt19937_64 random(11);
  auto plain_lower_bound = [](const Batch& b, RowRef key) {
    size_t low = 0, high = b.key_count();
    while (low < high) {
      size_t middle = (low + high) / 2;
      if (compare_rows(b.key(middle), key) < 0) low = middle + 1; else high = middle;
    }
    return low;
  };
  std::vector<std::vector<std::string>> key_sets(3);
  for (int64_t k = 0; k < 5000; k += 1 + static_cast<int64_t>(random() % 3)) key_sets[0].push_back(bigint_row(k * 977));
  const std::string common = "common-prefix-";
  for (int i = 0; i < 3000; ++i) {
    std::string key = common;
    for (size_t n = random() % 12; n > 0; --n) key += static_cast<char>('a' + random() % 3);
    key_sets[1].push_back(key);
  }
  for (int i = 0; i < 600; ++i) key_sets[2].push_back(std::string(static_cast<size_t>(i % 40), 'x') + static_cast<char>(i % 7));
  for (std::vector<std::string>& keys : key_sets) {
    BatchBuilder builder;
    for (const std::string& key : keys) builder.add_row(RowRef(key), 1);
    BatchPtr batch = builder.finish();
    ASSERT_GE(batch->key_count(), Batch::kFenceMinKeys);
    std::vector<std::string> probes = keys;
    for (const std::string& key : keys) {
      probes.push_back(key + '\0');
      probes.push_back(key.substr(0, key.size() / 2));
      std::string after = key;
      after.back() = static_cast<char>(after.back() + 1);
      probes.push_back(after);
    }
    probes.push_back("");
    probes.push_back("\xff\xff");
    probes.push_back(common.substr(0, 5));
    probes.push_back("zzz");
    for (const std::string& probe : probes) {
      ASSERT_EQ(batch->lower_bound(RowRef(probe)), plain_lower_bound(*batch, RowRef(probe))) << "probe '" << probe << "'";
      EXPECT_EQ(batch->find(RowRef(probe)).has_value(), std::find(keys.begin(), keys.end(), probe) != keys.end());
    }
  }
}

// Keys nearly as dense as the integers they span (ids counted up) are
// found by probing where they would be were they evenly spread, and
// galloping a few steps from there (batch.cpp): lower_bound() must find what
// a plain binary search finds when that guess is right, near, or far off (a
// dense run of ids next to a sparse one), for batches with and without a fence.
TEST(BatchTest, LookupsInDenseIdsFindWhatABinarySearchFinds) {
  std::mt19937_64 random(testing::test_seed(13));
  auto plain_lower_bound = [](const Batch& b, RowRef key) {
    size_t low = 0, high = b.key_count();
    while (low < high) {
      size_t middle = (low + high) / 2;
      if (compare_rows(b.key(middle), key) < 0)
        low = middle + 1;
      else
        high = middle;
    }
    return low;
  };
  for (int round = 0; round < 40; ++round) {
    const int64_t dense = 1 + static_cast<int64_t>(random() % 3000);
    const int64_t sparse = static_cast<int64_t>(random() % 200);
    const int64_t base = static_cast<int64_t>(random() % 5) - 2;  // around zero: the sign bit flips
    std::vector<int64_t> ids;
    for (int64_t id = base; ids.size() < static_cast<size_t>(dense); ++id) {
      if (random() % 8 != 0) ids.push_back(id);  // a few gaps
    }
    for (int64_t i = 0; i < sparse; ++i) ids.push_back(ids.back() + 1 + static_cast<int64_t>(random() % 1000));
    if (round % 2 == 1) std::reverse(ids.begin(), ids.end());  // the sparse run first, in the builder's input
    BatchBuilder builder;
    for (int64_t id : ids) builder.add_row(RowRef(bigint_row(id)), 1);
    BatchPtr batch = builder.finish();
    std::sort(ids.begin(), ids.end());
    for (int64_t probe = ids.front() - 3; probe <= ids.back() + 3;
         probe += 1 + (probe > ids.front() + dense ? 97 : 0)) {
      const std::string bytes = bigint_row(probe);
      ASSERT_EQ(batch->lower_bound(RowRef(bytes)), plain_lower_bound(*batch, RowRef(bytes))) << "probe " << probe;
      EXPECT_EQ(batch->find(RowRef(bytes)).has_value(), std::binary_search(ids.begin(), ids.end(), probe));
    }
    for (int64_t id : ids) {
      const std::string bytes = bigint_row(id);
      ASSERT_EQ(batch->lower_bound(RowRef(bytes)), plain_lower_bound(*batch, RowRef(bytes))) << "key " << id;
    }
  }
}

// Weights of +1 are counted, not stored, until another weight comes; every
// mix of pushes and appends reads back what was put in.
TEST(WeightColumnTest, StoresWeightsOnlyOnceOneIsNotOne) {
  std::mt19937_64 random(testing::test_seed(31));
  for (int round = 0; round < 200; ++round) {
    WeightColumn column, source;
    std::vector<Weight> expected, source_weights;
    int source_count = static_cast<int>(random() % 20);
    for (int i = 0; i < source_count; ++i) {
      Weight w = random() % 4 == 0 ? static_cast<Weight>(random() % 5) - 2 : 1;
      source.push_back(w);
      source_weights.push_back(w);
    }
    int steps = static_cast<int>(random() % 30);
    for (int i = 0; i < steps; ++i) {
      if (random() % 3 == 0 && source_count > 0) {
        size_t begin = random() % source_count, end = begin + random() % (source_count - begin + 1);
        column.append(source, begin, end);
        expected.insert(expected.end(), source_weights.begin() + begin, source_weights.begin() + end);
      } else {
        Weight w = random() % 8 == 0 ? -1 : 1;
        column.push_back(w);
        expected.push_back(w);
      }
    }
    ASSERT_EQ(column.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) ASSERT_EQ(column[i], expected[i]) << "round " << round << " at " << i;
  }
  // Only ones, pushed or appended from a column of ones: nothing stored.
  WeightColumn ones, more_ones;
  for (int i = 0; i < 1000; ++i) more_ones.push_back(1);
  ones.push_back(1);
  ones.append(more_ones, 10, 500);
  EXPECT_EQ(ones.memory_bytes(), 0u);
  EXPECT_EQ(ones.size(), 491u);
  ones.push_back(-3);
  EXPECT_GT(ones.memory_bytes(), 0u);
  EXPECT_EQ(ones[490], 1);
  EXPECT_EQ(ones[491], -3);
}

// Weights that fit a byte are stored a byte each; the first that does not
// widens them all. Every mix of narrow, wide and +1 weights, pushed,
// appended from columns of each kind or appended as ones, reads back what
// was put in.
TEST(WeightColumnTest, StoresSmallWeightsInAByteUntilALargeOneComes) {
  std::mt19937_64 random(testing::test_seed(37));
  auto draw = [&](int kind) -> Weight {
    if (kind == 0 || random() % 3 != 0) return 1;
    if (kind == 1 || random() % 2 == 0) return static_cast<Weight>(random() % 255) - 127;
    return random() % 2 == 0 ? Weight{128} + static_cast<Weight>(random() % 100000)
                             : -Weight{129} - static_cast<Weight>(random() % 100000);
  };
  for (int round = 0; round < 300; ++round) {
    WeightColumn sources[3];
    std::vector<Weight> source_weights[3];
    for (int kind = 0; kind < 3; ++kind) {
      for (int i = 0; i < 20; ++i) {
        Weight w = draw(kind);
        if (w == 0) w = 1;
        sources[kind].push_back(w);
        source_weights[kind].push_back(w);
      }
    }
    WeightColumn column;
    std::vector<Weight> expected;
    const int steps = static_cast<int>(random() % 30);
    const int kind = static_cast<int>(random() % 3);  // what this round's pushes draw
    for (int i = 0; i < steps; ++i) {
      const int what = static_cast<int>(random() % 4);
      if (what == 0) {
        const int from = static_cast<int>(random() % 3);
        size_t begin = random() % 20, end = begin + random() % (20 - begin + 1);
        column.append(sources[from], begin, end);
        expected.insert(expected.end(), source_weights[from].begin() + begin, source_weights[from].begin() + end);
      } else if (what == 1) {
        const size_t count = random() % 5;
        column.append_ones(count);
        expected.insert(expected.end(), count, Weight{1});
      } else {
        Weight w = draw(kind);
        if (w == 0) w = -1;
        column.push_back(w);
        expected.push_back(w);
      }
    }
    ASSERT_EQ(column.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) ASSERT_EQ(column[i], expected[i]) << "round " << round << " at " << i;
  }
  // A few weights of 2 among many ones: a byte per entry, not eight.
  WeightColumn column;
  for (int i = 0; i < 1000; ++i) column.push_back(i % 100 == 0 ? 2 : 1);
  EXPECT_LT(column.memory_bytes(), 2000u);
  EXPECT_EQ(column[100], 2);
  EXPECT_EQ(column[101], 1);
  column.push_back(1000);
  EXPECT_GE(column.memory_bytes(), 1001 * sizeof(Weight));
  EXPECT_EQ(column[100], 2);
  EXPECT_EQ(column[1000], 1000);
}

TEST(BatchBuilderTest, KeepsItsCapacityWhileStepsFillItAndFreesItAfter) {
  BatchBuilder builder;
  auto step = [&](int64_t entries) {
    for (int64_t i = 0; i < entries; ++i) builder.add_row(RowRef(bigint_row(i)), 1);
    EXPECT_EQ(builder.finish()->size(), static_cast<size_t>(entries));
  };
  step(10'000);  // a bulk load's step
  const size_t held = builder.memory_bytes();
  EXPECT_GT(held, size_t{64 * 1024});
  step(10'000);  // the next one reuses what the first grew
  EXPECT_EQ(builder.memory_bytes(), held);
  step(4'100);  // still a quarter or more of it in use: kept
  EXPECT_EQ(builder.memory_bytes(), held);
  step(1);  // a small step after the load: the large buffers go
  EXPECT_LE(builder.memory_bytes(), size_t{64 * 1024});
}

TEST(MergeTest, MergeIsTheSumOfZSets) {
  std::mt19937_64 random(testing::test_seed(13));
  for (int round = 0; round < 50; ++round) {
    BatchBuilder a, b;
    ZSetMap expected;
    for (int i = 0; i < 200; ++i) {
      std::string key = bigint_row(static_cast<int64_t>(random() % 30)),
                  value = bigint_row(static_cast<int64_t>(random() % 3));
      Weight weight = std::uniform_int_distribution<int>(-2, 2)(random);
      (i % 2 ? a : b).add(RowRef(key), RowRef(value), weight);
      if (weight) testing::add_entry(expected, key, value, weight);
    }
    BatchPtr batch_a = a.finish(), batch_b = b.finish();
    EXPECT_EQ(testing::to_map(*merge_batches(*batch_a, *batch_b)), expected);
    EXPECT_EQ(testing::to_map(*merge_all({batch_a, batch_b, Batch::empty_batch()})), expected);
    EXPECT_TRUE(merge_batches(*batch_a, *negate_batch(*batch_a))->empty());
  }
}

// The invariants of a finished batch: strictly increasing (key, value), no zero weights.
void expect_consolidated(const Batch& batch) {
  for (BatchCursor c(batch); c.valid(); c.next()) EXPECT_NE(c.weight(), 0);
  for (size_t k = 1; k < batch.key_count(); ++k) EXPECT_LT(compare_rows(batch.key(k - 1), batch.key(k)), 0);
  for (size_t k = 0; k < batch.key_count(); ++k) {
    EXPECT_LT(batch.values_begin(k), batch.values_end(k));
    for (size_t v = batch.values_begin(k) + 1; v < batch.values_end(k); ++v) {
      EXPECT_LT(compare_rows(batch.value(v - 1), batch.value(v)), 0);
    }
  }
}

// A builder that sorts in runs (a run every few entries, so that one key's
// entries, equal entries and entries that cancel fall in different runs)
// builds the batch one sort builds, step after step.
TEST(BatchBuilderTest, SortingInRunsBuildsWhatOneSortBuilds) {
  std::mt19937_64 random(testing::test_seed(14));
  for (int round = 0; round < 40; ++round) {
    BatchBuilder runs, one;
    runs.sort_in_runs(std::uniform_int_distribution<size_t>(1, 70)(random));
    for (int step = 0; step < 3; ++step) {
      ZSetMap expected;
      const int n = std::uniform_int_distribution<int>(0, 1500)(random);
      runs.reserve(static_cast<size_t>(n), static_cast<size_t>(n) * 16);  // capped at a run
      for (int i = 0; i < n; ++i) {
        std::string key(std::uniform_int_distribution<int>(0, 12)(random), 'k');
        if (!key.empty()) key.back() = static_cast<char>('a' + random() % 6);
        std::string value = bigint_row(static_cast<int64_t>(random() % 9));
        if (random() % 4 == 0) value.clear();
        const Weight weight = std::uniform_int_distribution<int>(-2, 2)(random);
        runs.add(RowRef(key), RowRef(value), weight);
        one.add(RowRef(key), RowRef(value), weight);
        if (weight != 0) testing::add_entry(expected, key, value, weight);
      }
      EXPECT_EQ(runs.empty(), one.empty());
      BatchPtr from_runs = runs.finish(), from_one = one.finish();
      EXPECT_TRUE(runs.empty());
      EXPECT_EQ(testing::to_map(*from_runs), expected);
      EXPECT_EQ(testing::to_map(*from_one), expected);
      expect_consolidated(*from_runs);
      EXPECT_EQ(from_runs->size(), from_one->size());
      EXPECT_EQ(from_runs->key_count(), from_one->key_count());
    }
  }
}

TEST(MergeTest, MergeManyIsTheSumOfZSets) {
  std::mt19937_64 random(testing::test_seed(15));
  for (int round = 0; round < 50; ++round) {
    std::vector<BatchPtr> batches;
    ZSetMap expected;
    const int count = std::uniform_int_distribution<int>(0, 9)(random);
    for (int b = 0; b < count; ++b) {
      BatchBuilder builder;
      const int n = std::uniform_int_distribution<int>(0, 120)(random);
      for (int i = 0; i < n; ++i) {
        std::string key = bigint_row(static_cast<int64_t>(random() % 25)),
                    value = bigint_row(static_cast<int64_t>(random() % 4));
        builder.add(RowRef(key), RowRef(value), std::uniform_int_distribution<int>(-2, 2)(random));
      }
      batches.push_back(builder.finish());
      if (random() % 5 == 0) batches.push_back(negate_batch(*batches.back()));  // entries that cancel across batches
    }
    for (const BatchPtr& batch : batches) {
      for (BatchCursor c(*batch); c.valid(); c.next()) {
        testing::add_entry(expected, c.key().to_bytes(), c.value().to_bytes(), c.weight());
      }
    }
    BatchPtr merged = merge_many(batches);
    EXPECT_EQ(testing::to_map(*merged), expected);
    expect_consolidated(*merged);
    EXPECT_EQ(testing::to_map(*merge_all(batches)), expected);
  }
}


// Rows of raw bytes that share a long start and differ late, some only
// past 8 bytes after it, some in trailing zero bytes ("ab" < "ab\0"):
// where a comparison of prefixes must defer to the bytes.
std::string tricky_row(std::mt19937_64& random, const std::string& start) {
  std::string row = start;
  const int tail = std::uniform_int_distribution<int>(0, 11)(random);
  for (int i = 0; i < tail; ++i) row.push_back(static_cast<char>(random() % 3 == 0 ? 0 : 'a' + random() % 3));
  return row;
}

TEST(MergeTest, MergeManyOfRowsThatDifferLateIsTheSumOfZSets) {
  std::mt19937_64 random(testing::test_seed(16));
  for (int round = 0; round < 60; ++round) {
    const std::string key_start(std::uniform_int_distribution<int>(0, 10)(random), 'K');
    const std::string value_start(std::uniform_int_distribution<int>(0, 10)(random), 'V');
    std::vector<BatchPtr> batches;
    ZSetMap expected;
    const int count = std::uniform_int_distribution<int>(1, 8)(random);
    for (int b = 0; b < count; ++b) {
      BatchBuilder builder;
      const int n = std::uniform_int_distribution<int>(0, 200)(random);
      for (int i = 0; i < n; ++i) {
        std::string key = tricky_row(random, key_start), value = tricky_row(random, value_start);
        const Weight weight = std::uniform_int_distribution<int>(-2, 2)(random);
        builder.add(RowRef(key), RowRef(value), weight);
        if (weight != 0) testing::add_entry(expected, key, value, weight);
      }
      batches.push_back(builder.finish());
      if (random() % 6 == 0) {  // entries that cancel across batches
        batches.push_back(negate_batch(*batches.back()));
        for (BatchCursor c(*batches.back()); c.valid(); c.next()) {
          testing::add_entry(expected, c.key().to_bytes(), c.value().to_bytes(), c.weight());
        }
      }
    }
    BatchPtr merged = merge_many(batches);
    EXPECT_EQ(testing::to_map(*merged), expected);
    expect_consolidated(*merged);
  }
}

// The runs of a big step whose rows came in order: each key's values in
// one batch all sort before its values in the next (copied whole), keys
// only some batches hold (copied in runs), values of several lengths.
TEST(MergeTest, MergeManyOfConsecutiveRunsIsTheSumOfZSets) {
  std::mt19937_64 random(testing::test_seed(17));
  for (int round = 0; round < 40; ++round) {
    const int keys = std::uniform_int_distribution<int>(1, 300)(random);
    const bool strings = random() % 2 == 0;
    std::vector<BatchPtr> batches;
    ZSetMap expected;
    int64_t id = 0;
    const int count = std::uniform_int_distribution<int>(2, 9)(random);
    for (int b = 0; b < count; ++b) {
      BatchBuilder builder;
      const int n = std::uniform_int_distribution<int>(0, 400)(random);
      for (int i = 0; i < n; ++i, ++id) {
        const int k = b % 3 == 0 ? static_cast<int>(random() % static_cast<uint64_t>(keys)) : static_cast<int>(id % keys);
        std::string key = bigint_row(k), value = bigint_row(id);
        if (strings) value += std::string(static_cast<size_t>(random() % 5), 's');
        const Weight weight = random() % 5 == 0 ? -1 : 1;
        builder.add(RowRef(key), RowRef(value), weight);
        testing::add_entry(expected, key, value, weight);
      }
      batches.push_back(builder.finish());
    }
    BatchPtr merged = merge_many(batches), pairwise = merge_all(batches);
    EXPECT_EQ(testing::to_map(*merged), expected);
    expect_consolidated(*merged);
    EXPECT_EQ(merged->key_count(), pairwise->key_count());
    EXPECT_EQ(merged->size(), pairwise->size());
    EXPECT_EQ(merged->key_bytes(), pairwise->key_bytes());
    EXPECT_EQ(merged->value_bytes(), pairwise->value_bytes());
  }
}

// Keys whose values interleave across many batches, one by one (the runs
// of a big step whose rows came in random order: merge_values gathers and
// sorts them) or in stretches (its heap merge): values of one width or of
// several (strings), some equal across batches, some cancelling.
TEST(MergeTest, MergeManyOfInterleavedValuesIsTheSumOfZSets) {
  std::mt19937_64 random(testing::test_seed(18));
  for (int round = 0; round < 60; ++round) {
    const int keys = std::uniform_int_distribution<int>(1, 6)(random);
    const int64_t distinct_values = std::uniform_int_distribution<int64_t>(1, 5000)(random);
    const bool strings = random() % 3 == 0, stretches = random() % 3 == 0;
    std::vector<BatchPtr> batches;
    ZSetMap expected;
    const int count = std::uniform_int_distribution<int>(2, 16)(random);
    for (int b = 0; b < count; ++b) {
      BatchBuilder builder;
      const int n = std::uniform_int_distribution<int>(0, 600)(random);
      // In stretches: this batch's values come from one part of the range.
      const int64_t base = stretches ? static_cast<int64_t>(random() % 4) * distinct_values : 0;
      for (int i = 0; i < n; ++i) {
        std::string key = bigint_row(static_cast<int64_t>(random() % static_cast<uint64_t>(keys)));
        std::string value = bigint_row(base + static_cast<int64_t>(random() % static_cast<uint64_t>(distinct_values)));
        if (strings) value += std::string(static_cast<size_t>(random() % 12), static_cast<char>('a' + random() % 3));
        const Weight weight = std::uniform_int_distribution<int>(-2, 2)(random);
        builder.add(RowRef(key), RowRef(value), weight);
        if (weight != 0) testing::add_entry(expected, key, value, weight);
      }
      batches.push_back(builder.finish());
      if (random() % 4 == 0) {  // entries that cancel across batches
        batches.push_back(negate_batch(*batches.back()));
        for (BatchCursor c(*batches.back()); c.valid(); c.next()) {
          testing::add_entry(expected, c.key().to_bytes(), c.value().to_bytes(), c.weight());
        }
      }
    }
    std::shuffle(batches.begin(), batches.end(), random);
    BatchPtr merged = merge_many(batches);
    EXPECT_EQ(testing::to_map(*merged), expected);
    expect_consolidated(*merged);
  }
}

// A big step of few keys with many values each, in random order, sorted in
// runs: every run holds some values of every key, interleaved with the
// other runs' (as a map re-keying a bulk load by a column of few values).
TEST(BatchBuilderTest, SortingInRunsOfInterleavedValuesBuildsWhatOneSortBuilds) {
  std::mt19937_64 random(testing::test_seed(19));
  for (int round = 0; round < 30; ++round) {
    BatchBuilder runs, one;
    runs.sort_in_runs(std::uniform_int_distribution<size_t>(50, 400)(random));
    const int keys = std::uniform_int_distribution<int>(1, 20)(random);
    const bool strings = random() % 2 == 0;
    ZSetMap expected;
    const int n = std::uniform_int_distribution<int>(0, 5000)(random);
    for (int i = 0; i < n; ++i) {
      std::string key = bigint_row(static_cast<int64_t>(random() % static_cast<uint64_t>(keys)));
      std::string value = bigint_row(static_cast<int64_t>(random() % 3000));
      if (strings) value = std::string(static_cast<size_t>(random() % 4), 'x') + value;
      const Weight weight = random() % 6 == 0 ? -1 : 1;
      runs.add(RowRef(key), RowRef(value), weight);
      one.add(RowRef(key), RowRef(value), weight);
      testing::add_entry(expected, key, value, weight);
    }
    BatchPtr from_runs = runs.finish(), from_one = one.finish();
    EXPECT_EQ(testing::to_map(*from_runs), expected);
    expect_consolidated(*from_runs);
    EXPECT_EQ(from_runs->size(), from_one->size());
    EXPECT_EQ(from_runs->key_count(), from_one->key_count());
    EXPECT_EQ(from_runs->value_bytes(), from_one->value_bytes());
  }
}

}  // namespace
}  // namespace freshet
