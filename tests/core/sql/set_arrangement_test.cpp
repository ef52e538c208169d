// DISTINCT, EXCEPT, INTERSECT and anti-joins over shared arrangements
// (distinct.h, anti_join.h, multiset_set_operation.h, plan_arrange.cpp):
// they keep no trace of their own, a stream of rows they read alike is
// arranged once, and an anti-join keeps no set of the right's keys beside
// their counts. Counts the bytes each operator holds; checks results
// against a from-scratch run (random steps with deletes) and across a
// checkpoint taken and resumed mid-run.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "freshet/sql/compiler.h"
#include "support/compile_sharing.h"
#include "support/zset_map.h"

namespace freshet::sql {
namespace {

// Two tables of the same shape, read alike by DISTINCT, EXCEPT and the
// INTERSECTs: each is arranged by its whole row once.
constexpr const char* kSetViews = R"(
CREATE TABLE t (a BIGINT, b VARCHAR);
CREATE TABLE u (a BIGINT, b VARCHAR);
CREATE VIEW d AS SELECT DISTINCT * FROM t;
CREATE VIEW e AS SELECT * FROM t EXCEPT SELECT * FROM u;
CREATE VIEW i AS SELECT * FROM t INTERSECT SELECT * FROM u;
CREATE VIEW ia AS SELECT * FROM t INTERSECT ALL SELECT * FROM u;
CREATE VIEW ea AS SELECT * FROM u EXCEPT ALL SELECT * FROM t;
)";

// Anti-joins of other kinds: a LEFT JOIN's unmatched rows, a FULL JOIN with
// a condition (whole rows), NOT EXISTS, and a global aggregate's empty row.
constexpr const char* kAntiJoinViews = R"(
CREATE VIEW lj AS SELECT t.a, t.b, u.b AS ub FROM t LEFT JOIN u ON t.a = u.a;
CREATE VIEW fj AS SELECT t.a, u.b FROM t FULL JOIN u ON t.a = u.a AND t.b < u.b;
CREATE VIEW ne AS SELECT a FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.a = t.a);
CREATE VIEW total AS SELECT COUNT(*) AS n, SUM(a) AS s FROM u WHERE a > 3;
)";

std::unique_ptr<CompiledProgram> compile(const std::string& sql, bool share) {
  return testing::compile_sharing(sql, share, share);
}

std::string row_of(const CompiledProgram& program, const char* table, int64_t a, int64_t b) {
  RowBuilder row(*program.find_table(table)->schema);
  row.set_int(0, a);
  if (b < 0) {
    row.set_null(1);
  } else {
    row.set_string(1, "b" + std::to_string(b));
  }
  return row.finish().to_bytes();
}

//! State bytes of the operators named `name`.
size_t state_of(const CompiledProgram& program, std::string_view name) {
  size_t total = 0;
  for (size_t i = 0; i < program.circuit->operator_count(); ++i) {
    const Operator& op = program.circuit->operator_at(i);
    if (name == op.name()) total += op.state_bytes();
  }
  return total;
}

//! How many operators named `name` hold more than `bytes`.
size_t holding_over(const CompiledProgram& program, std::string_view name, size_t bytes) {
  size_t count = 0;
  for (size_t i = 0; i < program.circuit->operator_count(); ++i) {
    const Operator& op = program.circuit->operator_at(i);
    if (name == op.name() && op.state_bytes() > bytes) ++count;
  }
  return count;
}

//! `rows` distinct rows in t and u each, half of them in both.
void load(CompiledProgram& program, int rows) {
  for (int r = 0; r < rows; ++r) {
    program.find_table("t")->input->push_row(RowRef(row_of(program, "t", r, r % 50)), 1);
    program.find_table("u")->input->push_row(RowRef(row_of(program, "u", r + rows / 2, (r + rows / 2) % 50)), 1);
  }
  ASSERT_TRUE(program.circuit->step().ok());
}

TEST(SetArrangementTest, DistinctExceptAndIntersectsHoldEachTableOnce) {
  auto shared = compile(kSetViews, true);
  auto unshared = compile(kSetViews, false);
  ASSERT_TRUE(shared && unshared);
  ASSERT_NO_FATAL_FAILURE(load(*shared, 3000));
  ASSERT_NO_FATAL_FAILURE(load(*unshared, 3000));
  // An arrangement of 3,000 rows takes more than 8 bytes (a weight) a row.
  // Shared: t and u once each (the EXCEPT reads t's distinct rows in t's
  // arrangement: before it was a DISTINCT and an anti-join, it held them a
  // second time). Unshared: t five times (d, e, i, ia, ea), u four times.
  EXPECT_EQ(holding_over(*shared, "arrange", 3000 * 8), 2u);
  EXPECT_EQ(holding_over(*unshared, "arrange", 3000 * 8), 9u);
  // None of the readers keeps a trace of its own.
  for (const auto* program : {shared.get(), unshared.get()}) {
    EXPECT_EQ(state_of(*program, "distinct"), 0u);
    EXPECT_EQ(state_of(*program, "anti_join"), 0u);
    EXPECT_EQ(state_of(*program, "multiset_set_operation"), 0u);
  }
  EXPECT_EQ(shared->circuit->state_bytes(), state_of(*shared, "arrange"));
  EXPECT_LT(shared->circuit->state_bytes() * 2, unshared->circuit->state_bytes());
}

TEST(SetArrangementTest, AnAntiJoinKeepsTheRightKeysOnce) {
  // A LEFT JOIN: t and u by the key (the join's sides; the anti-join reads
  // t's too) and u's keys with their counts. Before, the keys were counted
  // by a DISTINCT and held again as a set by the join behind the anti-join:
  // four traces of 3,000 entries, now three.
  const std::string tables = R"(
CREATE TABLE t (a BIGINT, b VARCHAR);
CREATE TABLE u (a BIGINT, b VARCHAR);
)";
  auto left_join = compile(tables + "CREATE VIEW lj AS SELECT t.a, u.b FROM t LEFT JOIN u ON t.a = u.a;", true);
  ASSERT_TRUE(left_join);
  ASSERT_NO_FATAL_FAILURE(load(*left_join, 3000));
  EXPECT_EQ(state_of(*left_join, "anti_join"), 0u);
  EXPECT_EQ(left_join->circuit->state_bytes(), state_of(*left_join, "arrange"));
  EXPECT_EQ(holding_over(*left_join, "arrange", 3000 * 8), 3u);
  // NOT EXISTS is an anti-join of t by key (the LEFT JOIN's) with u's keys
  // as they are (one trace, read by the anti-join directly): four traces
  // for both views, where a LEFT JOIN with the subquery's DISTINCT keys
  // kept six (u's keys, those keys by key, and their counts) and before
  // that eight.
  auto both = compile(tables + R"(
CREATE VIEW lj AS SELECT t.a, u.b FROM t LEFT JOIN u ON t.a = u.a;
CREATE VIEW ne AS SELECT a FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.a = t.a);
)", true);
  ASSERT_TRUE(both);
  ASSERT_NO_FATAL_FAILURE(load(*both, 3000));
  EXPECT_EQ(both->circuit->state_bytes(), state_of(*both, "arrange"));
  EXPECT_EQ(holding_over(*both, "arrange", 3000 * 8), 4u);
}

using Contents = std::vector<testing::ZSetMap>;

// Random inserts and deletes (duplicates included, so EXCEPT ALL and
// INTERSECT ALL see multiplicities); with `checkpoint_at`, the circuit is
// saved and restored into a fresh build of the same program at that step.
void check_against_scratch(bool share, int checkpoint_at, uint64_t seed) {
  const std::string sql = std::string(kSetViews) + kAntiJoinViews;
  auto program = compile(sql, share);
  ASSERT_TRUE(program);
  Contents contents(program->views.size());
  std::vector<bool> changed(program->views.size(), false);
  std::vector<std::string> rows[2];
  const char* tables[2] = {"t", "u"};
  std::mt19937_64 random(seed);
  for (int step = 0; step < 150; ++step) {
    if (step == checkpoint_at) {
      ByteWriter saved;
      program->circuit->save_state(saved);
      program = compile(sql, share);
      ASSERT_TRUE(program);
      Status restored = program->circuit->restore_state(saved.data());
      ASSERT_TRUE(restored.ok()) << restored.to_string();
    }
    for (int i = 0; i < 6; ++i) {
      const int side = static_cast<int>(random() % 2);
      std::vector<std::string>& held = rows[side];
      if (!held.empty() && random() % 3 == 0) {
        size_t at = random() % held.size();
        program->find_table(tables[side])->input->push_row(RowRef(held[at]), -1);
        held.erase(held.begin() + static_cast<std::ptrdiff_t>(at));
      } else {
        const int64_t b = random() % 8 == 0 ? -1 : static_cast<int64_t>(random() % 4);
        held.push_back(row_of(*program, tables[side], static_cast<int64_t>(random() % 9), b));
        program->find_table(tables[side])->input->push_row(RowRef(held.back()), 1);
      }
    }
    ASSERT_TRUE(program->circuit->step().ok());
    for (size_t v = 0; v < program->views.size(); ++v) {
      testing::add_batch(contents[v], *program->views[v].stream.current());
      changed[v] = changed[v] || !program->views[v].stream.current()->empty();
    }
  }
  auto scratch = compile(sql, share);
  for (int side = 0; side < 2; ++side) {
    for (const std::string& row : rows[side]) scratch->find_table(tables[side])->input->push_row(RowRef(row), 1);
  }
  ASSERT_TRUE(scratch->circuit->step().ok());
  for (size_t v = 0; v < program->views.size(); ++v) {
    EXPECT_EQ(contents[v], testing::to_map(*scratch->views[v].stream.current()))
        << "view " << program->views[v].name << (share ? " shared" : " unshared");
    EXPECT_TRUE(changed[v]) << program->views[v].name;
  }
}

TEST(SetArrangementTest, IncrementalResultsEqualAFromScratchRun) {
  check_against_scratch(true, -1, 31);
  check_against_scratch(false, -1, 32);
}

TEST(SetArrangementTest, ResultsCarryOnAcrossACheckpoint) {
  check_against_scratch(true, 70, 33);
  check_against_scratch(false, 45, 34);
}

}  // namespace
}  // namespace freshet::sql
