// Tests of top-k: hand-written steps (ties, duplicates, deletions inside the
// top k, NULL placement, ASC and DESC, the global case), oracle runs against
// a sort-and-cut reference, and a structural check that a step's work follows
// the change rather than the partition's size.
#include "freshet/operators/top_k.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>

#include "support/generators.h"
#include "support/rank_limit_oracle.h"

namespace freshet {
namespace {

using testing::ZSetMap;

//! A (p, x, s) value row: partition column, order column, a string.
std::string kxs_row(int64_t p, std::optional<int64_t> x, const char* s = "") {
  RowBuilder row(*testing::kxs_schema());
  row.set_int(0, p);
  if (x) row.set_int(1, *x); else row.set_null(1);
  if (s) row.set_string(2, s); else row.set_null(2);
  return row.finish().to_bytes();
}

std::string partition_row(int64_t p) {
  RowBuilder row(*testing::bigint_schema());
  row.set_int(0, p);
  return row.finish().to_bytes();
}

//! Rendered output rows ("(1, 5, 'a')") with their weights.
using Rendered = std::map<std::string, Weight>;

Rendered render(const Batch& batch) {
  Rendered out;
  for (BatchCursor c(batch); c.valid(); c.next()) {
    out[RowReader(*testing::kxs_schema(), c.key()).to_string()] += c.weight();
  }
  return out;
}

//! A top-k over an input keyed by the row's first column (or by nothing).
class TopKCircuit {
 public:
  TopKCircuit(std::vector<SortColumn> order_by, size_t k, bool global = false) : global_(global) {
    input_ = add_input(circuit_, global ? empty_schema() : testing::bigint_schema(), testing::kxs_schema());
    output_ = top_k(input_->stream(), std::move(order_by), k, &stats_);
  }

  void push(const std::string& row, Weight weight) {
    int64_t p = RowReader(*testing::kxs_schema(), RowRef(row)).get_int(0);
    std::string key = global_ ? std::string() : partition_row(p);
    input_->push(RowRef(key), RowRef(row), weight);
  }
  //! Runs a step and returns its output delta.
  Rendered step() {
    EXPECT_TRUE(circuit_.step().ok());
    testing::add_batch(integrated_, *output_.current());
    return render(*output_.current());
  }
  Rendered integrated() const {
    Rendered out;
    for (const auto& [entry, weight] : integrated_) {
      out[RowReader(*testing::kxs_schema(), RowRef(entry.first)).to_string()] = weight;
    }
    return out;
  }
  const TopKStats& stats() const { return *stats_; }
  Stream output() const { return output_; }

 private:
  bool global_;
  Circuit circuit_;
  InputOperator* input_ = nullptr;
  Stream output_;
  const TopKStats* stats_ = nullptr;
  ZSetMap integrated_;
};

const std::vector<SortColumn> kByX = {{1, false, false}};

// The example of top_k.h.
TEST(TopKTest, FollowsTheHeaderExample) {
  TopKCircuit t(kByX, 2);
  EXPECT_EQ(t.output().key_schema().size(), 3u);
  EXPECT_TRUE(t.output().value_schema().empty());
  t.push(kxs_row(7, 1), 1);
  t.push(kxs_row(7, 3), 1);
  t.push(kxs_row(7, 5), 1);
  EXPECT_EQ(t.step(), (Rendered{{"(7, 1, '')", 1}, {"(7, 3, '')", 1}}));
  t.push(kxs_row(7, 2), 1);
  EXPECT_EQ(t.step(), (Rendered{{"(7, 2, '')", 1}, {"(7, 3, '')", -1}}));
  t.push(kxs_row(7, 1), -1);
  EXPECT_EQ(t.step(), (Rendered{{"(7, 1, '')", -1}, {"(7, 3, '')", 1}}));
  t.push(kxs_row(7, 9), 1);
  EXPECT_EQ(t.step(), Rendered{});
  EXPECT_EQ(t.integrated(), (Rendered{{"(7, 2, '')", 1}, {"(7, 3, '')", 1}}));
}

TEST(TopKTest, TiesAreBrokenByRowBytes) {
  TopKCircuit t(kByX, 1);
  t.push(kxs_row(1, 5, "b"), 1);
  t.push(kxs_row(1, 5, "a"), 1);
  t.push(kxs_row(1, 6, "0"), 1);
  EXPECT_EQ(t.step(), (Rendered{{"(1, 5, 'a')", 1}}));
  t.push(kxs_row(1, 5, "a"), -1);
  EXPECT_EQ(t.step(), (Rendered{{"(1, 5, 'a')", -1}, {"(1, 5, 'b')", 1}}));
}

TEST(TopKTest, ARowOccupiesAsManyPositionsAsItsWeight) {
  TopKCircuit t(kByX, 3);
  t.push(kxs_row(1, 4), 5);
  EXPECT_EQ(t.step(), (Rendered{{"(1, 4, '')", 3}}));
  t.push(kxs_row(1, 2), 2);
  EXPECT_EQ(t.step(), (Rendered{{"(1, 2, '')", 2}, {"(1, 4, '')", -2}}));
  t.push(kxs_row(1, 2), -1);
  t.push(kxs_row(1, 9), 1);
  EXPECT_EQ(t.step(), (Rendered{{"(1, 2, '')", -1}, {"(1, 4, '')", 1}}));
  EXPECT_EQ(t.integrated(), (Rendered{{"(1, 2, '')", 1}, {"(1, 4, '')", 2}}));
}

TEST(TopKTest, DeletingInsideTheTopKMovesTheNextRowIn) {
  TopKCircuit t(kByX, 3);
  for (int64_t x = 1; x <= 6; ++x) t.push(kxs_row(1, x), 1);
  t.step();
  t.push(kxs_row(1, 2), -1);
  EXPECT_EQ(t.step(), (Rendered{{"(1, 2, '')", -1}, {"(1, 4, '')", 1}}));
  // Two deletions in one step: the 5th and 6th move in.
  t.push(kxs_row(1, 1), -1);
  t.push(kxs_row(1, 3), -1);
  EXPECT_EQ(t.step(), (Rendered{{"(1, 1, '')", -1}, {"(1, 3, '')", -1}, {"(1, 5, '')", 1}, {"(1, 6, '')", 1}}));
  // A delete and an insert that leave the top k unchanged.
  t.push(kxs_row(1, 6), -1);
  t.push(kxs_row(1, 6, "x"), 1);
  EXPECT_EQ(t.step(), (Rendered{{"(1, 6, '')", -1}, {"(1, 6, 'x')", 1}}));
  EXPECT_EQ(t.integrated(), (Rendered{{"(1, 4, '')", 1}, {"(1, 5, '')", 1}, {"(1, 6, 'x')", 1}}));
}

// NULL placement follows nulls_first whatever the direction (sort_key.cpp
// never inverts the NULL marker).
TEST(TopKTest, NullsAndDirections) {
  struct Case {
    bool descending, nulls_first;
    Rendered expected;  // top 2 of x in {NULL, 1, 2, 3}
  };
  const Case cases[] = {
      {false, false, {{"(1, 1, '')", 1}, {"(1, 2, '')", 1}}},
      {false, true, {{"(1, NULL, '')", 1}, {"(1, 1, '')", 1}}},
      {true, false, {{"(1, 3, '')", 1}, {"(1, 2, '')", 1}}},
      {true, true, {{"(1, NULL, '')", 1}, {"(1, 3, '')", 1}}},
  };
  for (const Case& c : cases) {
    TopKCircuit t({{1, c.descending, c.nulls_first}}, 2);
    t.push(kxs_row(1, std::nullopt), 1);
    for (int64_t x = 1; x <= 3; ++x) t.push(kxs_row(1, x), 1);
    EXPECT_EQ(t.step(), c.expected) << "descending=" << c.descending << " nulls_first=" << c.nulls_first;
  }
}

TEST(TopKTest, StringsDescendingThenNumbers) {
  TopKCircuit t({{2, true, false}, {1, false, false}}, 3);
  t.push(kxs_row(1, 1, "a"), 1);
  t.push(kxs_row(1, 2, "b"), 1);
  t.push(kxs_row(1, 0, "b"), 1);
  t.push(kxs_row(1, 0, "ab"), 1);
  t.push(kxs_row(1, 0, nullptr), 1);
  EXPECT_EQ(t.step(), (Rendered{{"(1, 0, 'b')", 1}, {"(1, 2, 'b')", 1}, {"(1, 0, 'ab')", 1}}));
}

TEST(TopKTest, KLargerThanThePartitionKeepsEveryRow) {
  TopKCircuit t(kByX, 100);
  t.push(kxs_row(1, 3), 2);
  t.push(kxs_row(1, 1), 1);
  t.push(kxs_row(2, 1), 1);
  EXPECT_EQ(t.step(), (Rendered{{"(1, 1, '')", 1}, {"(1, 3, '')", 2}, {"(2, 1, '')", 1}}));
  t.push(kxs_row(1, 3), -2);
  EXPECT_EQ(t.step(), (Rendered{{"(1, 3, '')", -2}}));
}

TEST(TopKTest, AHugeKMeansEveryRow) {
  TopKCircuit t(kByX, SIZE_MAX);
  t.push(kxs_row(1, 3), 2);
  t.push(kxs_row(1, 1), 1);
  EXPECT_EQ(t.step(), (Rendered{{"(1, 1, '')", 1}, {"(1, 3, '')", 2}}));
}

TEST(TopKTest, PartitionsAreIndependent) {
  TopKCircuit t(kByX, 1);
  t.push(kxs_row(1, 5), 1);
  t.push(kxs_row(2, 7), 1);
  t.push(kxs_row(2, 6), 1);
  EXPECT_EQ(t.step(), (Rendered{{"(1, 5, '')", 1}, {"(2, 6, '')", 1}}));
  t.push(kxs_row(1, 4), 1);
  EXPECT_EQ(t.step(), (Rendered{{"(1, 4, '')", 1}, {"(1, 5, '')", -1}}));
}

TEST(TopKTest, GlobalTopKWithTheEmptyKey) {
  TopKCircuit t(kByX, 2, /*global=*/true);
  t.push(kxs_row(1, 5), 1);
  t.push(kxs_row(2, 3), 1);
  t.push(kxs_row(3, 4), 1);
  EXPECT_EQ(t.step(), (Rendered{{"(2, 3, '')", 1}, {"(3, 4, '')", 1}}));
  t.push(kxs_row(2, 3), -1);
  EXPECT_EQ(t.step(), (Rendered{{"(1, 5, '')", 1}, {"(2, 3, '')", -1}}));
}

TEST(TopKTest, KZeroOutputsNothing) {
  TopKCircuit t(kByX, 0);
  t.push(kxs_row(1, 5), 1);
  EXPECT_EQ(t.step(), Rendered{});
}

// After 100k rows in one partition, a change outside the top k reads O(k)
// trace entries and emits nothing; a change inside emits the swap.
TEST(TopKTest, WorkFollowsTheChangeNotThePartition) {
  const size_t k = 10;
  TopKCircuit t(kByX, k);
  for (int64_t chunk = 0; chunk < 100; ++chunk) {
    for (int64_t i = 0; i < 1000; ++i) t.push(kxs_row(1, 1000 * ((chunk * 7) % 100) + i + 100), 1);
    t.step();
  }
  EXPECT_EQ(t.integrated().size(), k);

  auto visits_of_step = [&](Rendered* delta) {
    uint64_t before = t.stats().entries_visited;
    *delta = t.step();
    return t.stats().entries_visited - before;
  };
  Rendered delta;
  t.push(kxs_row(1, 50000), -1);  // deep inside the partition
  EXPECT_LE(visits_of_step(&delta), 2 * (k + 1));
  EXPECT_EQ(delta, Rendered{});
  t.push(kxs_row(1, 1000000), 1);  // after the last row
  EXPECT_LE(visits_of_step(&delta), 2 * (k + 1));
  EXPECT_EQ(delta, Rendered{});
  t.push(kxs_row(1, 0), 1);  // a new first row pushes out the 10th (x = 109)
  EXPECT_LE(visits_of_step(&delta), 2 * (k + 1));
  EXPECT_EQ(delta, (Rendered{{"(1, 0, '')", 1}, {"(1, 109, '')", -1}}));
  t.push(kxs_row(1, 0), -1);  // and gone again: its cancelled entry is read once
  EXPECT_LE(visits_of_step(&delta), 2 * (k + 2));
  EXPECT_EQ(delta, (Rendered{{"(1, 0, '')", -1}, {"(1, 109, '')", 1}}));
}

// ---- Oracle ----

int compare_values(const RowReader& a, const RowReader& b, size_t column) {
  if (a.schema().type(column).id == TypeId::kVarchar) {
    int c = a.get_string(column).compare(b.get_string(column));
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  int64_t x = a.get_int(column), y = b.get_int(column);
  return x < y ? -1 : (x > y ? 1 : 0);
}

//! SQL ORDER BY order, then row bytes: what top-k promises, written plainly.
bool sql_less(const RowReader& a, const RowReader& b, const std::vector<SortColumn>& order_by) {
  for (const SortColumn& sort : order_by) {
    bool a_null = a.is_null(sort.column), b_null = b.is_null(sort.column);
    if (a_null && b_null) continue;
    if (a_null || b_null) return a_null == sort.nulls_first;
    int c = compare_values(a, b, sort.column);
    if (c != 0) return sort.descending ? c > 0 : c < 0;
  }
  return compare_rows(a.row(), b.row()) < 0;
}

ZSetMap top_k_reference(const ZSetMap& input, const std::vector<SortColumn>& order_by, size_t k, size_t offset = 0) {
  std::map<std::string, std::vector<std::pair<std::string, Weight>>> partitions;
  for (const auto& [entry, weight] : input) partitions[entry.first].push_back({entry.second, weight});
  const Schema& schema = *testing::kxs_schema();
  ZSetMap out;
  for (auto& [partition, rows] : partitions) {
    std::sort(rows.begin(), rows.end(), [&](const auto& a, const auto& b) {
      return sql_less(RowReader(schema, RowRef(a.first)), RowReader(schema, RowRef(b.first)), order_by);
    });
    std::vector<std::string> expanded;
    for (const auto& [row, weight] : rows) {
      for (Weight i = 0; i < weight; ++i) expanded.push_back(row);
    }
    for (size_t i = offset; i < expanded.size() && i - offset < k; ++i) testing::add_entry(out, expanded[i], "", 1);
  }
  return out;
}

void run_top_k_oracle(const testing::OracleInput& input, std::vector<SortColumn> order_by, size_t k, uint64_t seed) {
  testing::run_oracle(
      {input}, [&](const std::vector<Stream>& in) { return top_k(in[0], order_by, k); },
      [&](const std::vector<ZSetMap>& in) { return top_k_reference(in[0], order_by, k); }, seed);
}

testing::OracleInput global_kxs_input() {
  return {empty_schema(), testing::kxs_schema(),
          [](std::mt19937_64& random, RowBuilder&, RowBuilder& value) { testing::random_kxs(random, value, 4); }};
}

TEST(TopKTest, MatchesOracleXAscK1) {
  run_top_k_oracle(testing::indexed_kxs_input(4), {{1, false, false}}, 1, testing::test_seed(301));
}

TEST(TopKTest, MatchesOracleXDescNullsFirstK3) {
  run_top_k_oracle(testing::indexed_kxs_input(4), {{1, true, true}}, 3, testing::test_seed(302));
}

TEST(TopKTest, MatchesOracleVarcharAscThenXDescK5) {
  run_top_k_oracle(testing::indexed_kxs_input(3), {{2, false, false}, {1, true, false}}, 5, testing::test_seed(303));
}

TEST(TopKTest, MatchesOracleVarcharDescNullsFirstK2) {
  run_top_k_oracle(testing::indexed_kxs_input(4), {{2, true, true}}, 2, testing::test_seed(304));
}

TEST(TopKTest, MatchesOracleGlobalXAscVarcharDescK4) {
  run_top_k_oracle(global_kxs_input(), {{1, false, true}, {2, true, false}}, 4, testing::test_seed(305));
}

void run_offset_oracle(const testing::OracleInput& input, std::vector<SortColumn> order_by, size_t k, size_t offset,
                       uint64_t seed) {
  testing::run_oracle(
      {input}, [&](const std::vector<Stream>& in) { return top_k(in[0], order_by, k, offset, nullptr); },
      [&](const std::vector<ZSetMap>& in) { return top_k_reference(in[0], order_by, k, offset); }, seed);
}

// LIMIT k OFFSET m: positions [m, m + k) of each partition.
TEST(TopKTest, MatchesOracleOffset2K3) {
  run_offset_oracle(testing::indexed_kxs_input(3), {{1, false, false}}, 3, 2, testing::test_seed(307));
}

TEST(TopKTest, MatchesOracleGlobalOffset5K2Desc) {
  run_offset_oracle(global_kxs_input(), {{1, true, true}, {2, false, false}}, 2, 5, testing::test_seed(308));
}

TEST(TopKTest, MatchesOracleOffset1K1) {
  run_offset_oracle(testing::indexed_kxs_input(2), {{2, false, true}}, 1, 1, testing::test_seed(309));
}

// A row of weight 3 straddling the offset is output with its positions past it.
TEST(TopKTest, OffsetSplitsARowsPositions) {
  Circuit circuit;
  InputOperator* input = add_input(circuit, empty_schema(), testing::kxs_schema());
  Stream out = top_k(input->stream(), kByX, 3, 2, nullptr);
  input->push(RowRef(), RowRef(kxs_row(1, 1)), 1);
  input->push(RowRef(), RowRef(kxs_row(1, 2)), 3);
  input->push(RowRef(), RowRef(kxs_row(1, 3)), 1);
  ASSERT_TRUE(circuit.step().ok());
  EXPECT_EQ(render(*out.current()), (Rendered{{"(1, 2, '')", 2}, {"(1, 3, '')", 1}}));
  input->push(RowRef(), RowRef(kxs_row(1, 0)), 1);
  ASSERT_TRUE(circuit.step().ok());
  EXPECT_EQ(render(*out.current()), (Rendered{{"(1, 2, '')", 1}, {"(1, 3, '')", -1}}));
}

TEST(TopKTest, MatchesOracleNoOrderColumnsK3) {
  // No ORDER BY columns: the row bytes alone decide (a deterministic LIMIT).
  run_top_k_oracle(testing::indexed_kxs_input(2), {}, 3, testing::test_seed(306));
}

// ---- Changes past the first positions ----
// The operator keeps each partition's first positions between steps and
// skips a partition whose change lands past them; these runs mostly change
// rows past them, with ties, weights, upserts and a checkpoint restored over
// a later state (rank_limit_oracle.h).

//! `least_skipped`: the share of touched partitions the run must have skipped.
void run_skip_oracle(std::vector<SortColumn> order_by, size_t k, size_t offset, uint64_t seed,
                     testing::RankLimitRunOptions options = {}, double least_skipped = 0.5) {
  const TopKStats* live_stats = nullptr;  // the operator's, gone with the circuit
  std::optional<TopKStats> stats;
  testing::run_rank_limit_oracle(
      [&](const std::vector<Stream>& in) { return top_k(in[0], order_by, k, offset, &live_stats); },
      [&](const std::vector<ZSetMap>& in) { return top_k_reference(in[0], order_by, k, offset); }, seed, options,
      [&] { stats = *live_stats; });
  ASSERT_TRUE(stats.has_value());
  // Changes were skipped, and not all: the runs test both paths.
  EXPECT_GT(static_cast<double>(stats->partitions_unchanged), least_skipped * stats->partitions_touched);
  EXPECT_LT(stats->partitions_unchanged, stats->partitions_touched);
  // Of those recomputed, some from the list kept and some by reading the trace.
  EXPECT_GT(stats->partitions_merged, 0u);
  EXPECT_LT(stats->partitions_unchanged + stats->partitions_merged, stats->partitions_touched);
}

TEST(TopKTest, ChangesPastTheTopKMatchOracleK3) { run_skip_oracle({{1, false, false}}, 3, 0, testing::test_seed(310)); }

TEST(TopKTest, ChangesPastTheTopKMatchOracleK1DescendingNullsFirst) {
  run_skip_oracle({{1, true, true}}, 1, 0, testing::test_seed(311));
}

// Ties on x are broken by the row: the k-th position's row and a row after
// it may share their x.
TEST(TopKTest, ChangesPastTheTopKMatchOracleTiesOnly) {
  testing::RankLimitRunOptions options;
  options.x_domain = 1;
  run_skip_oracle({{1, false, false}}, 4, 0, testing::test_seed(312), options);
}

TEST(TopKTest, ChangesPastTheTopKMatchOracleWithOffset) {
  run_skip_oracle({{1, true, true}, {2, false, false}}, 2, 3, testing::test_seed(313));
}

// 6000 partitions at once: more than the operator keeps, so some are read
// again from the trace on their next change. Partitions stay small: fewer
// changes land past their first positions.
TEST(TopKTest, ChangesPastTheTopKMatchOracleManyPartitions) {
  testing::RankLimitRunOptions options;
  options.partitions = 6000;
  options.initial_rows = 4;
  options.steps = 300;
  options.check_every = 30;
  options.save_at = 100;
  options.restore_at = 200;
  run_skip_oracle({{1, false, false}}, 2, 0, testing::test_seed(314), options, 0.05);
}

// After 1000 rows, a change past the 3rd position reads no trace entry, nor
// does one before it that leaves the 3 positions filled; a delete inside
// them reads the rows after.
TEST(TopKTest, AChangePastTheTopKReadsNothing) {
  TopKCircuit t(kByX, 3);
  for (int64_t x = 0; x < 1000; ++x) t.push(kxs_row(1, x), 1);
  t.step();  // the partition was empty: its 3 positions come from the list kept and the change
  EXPECT_EQ(t.stats().partitions_merged, 1u);
  const uint64_t visited = t.stats().entries_visited;
  t.push(kxs_row(1, 500), -1);
  t.push(kxs_row(1, 2000), 2);
  EXPECT_EQ(t.step(), Rendered{});
  EXPECT_EQ(t.stats().partitions_unchanged, 1u);
  // The 3rd row itself (here: more of its weight) is recomputed, from the list kept.
  t.push(kxs_row(1, 2), 1);
  EXPECT_EQ(t.step(), Rendered{});
  EXPECT_EQ(t.stats().partitions_unchanged, 1u);
  EXPECT_EQ(t.stats().partitions_merged, 2u);
  // A row tying with the 3rd on x but after it by bytes stays out.
  t.push(kxs_row(1, 2, "z"), 1);
  EXPECT_EQ(t.step(), Rendered{});
  EXPECT_EQ(t.stats().partitions_unchanged, 2u);
  // A new first row pushes out the 3rd, from the list kept.
  t.push(kxs_row(1, -1), 1);
  EXPECT_EQ(t.step(), (Rendered{{"(1, -1, '')", 1}, {"(1, 2, '')", -1}}));
  EXPECT_EQ(t.stats().partitions_merged, 3u);
  EXPECT_EQ(t.stats().entries_visited, visited);
  // Deleting inside moves the next row in: read from the trace.
  t.push(kxs_row(1, -1), -1);
  t.push(kxs_row(1, 0), -1);
  EXPECT_EQ(t.step(), (Rendered{{"(1, -1, '')", -1}, {"(1, 0, '')", -1}, {"(1, 2, '')", 2}}));
  EXPECT_GT(t.stats().entries_visited, visited);
}

// A partition with fewer than k rows: every change is recomputed.
TEST(TopKTest, APartitionShortOfKIsAlwaysRecomputed) {
  TopKCircuit t(kByX, 3);
  t.push(kxs_row(1, 1), 1);
  t.push(kxs_row(1, 2), 1);
  t.step();
  t.push(kxs_row(1, 9), 1);
  EXPECT_EQ(t.step(), (Rendered{{"(1, 9, '')", 1}}));
  t.push(kxs_row(1, 10), 1);
  EXPECT_EQ(t.step(), Rendered{});
  EXPECT_EQ(t.stats().partitions_unchanged, 1u);  // full now: 10 comes after 9
}

}  // namespace
}  // namespace freshet
