// Join planning (core/src/sql/plan_join_order.cpp) on sqllogictest's select5
// shape: tables tN(aN INTEGER PRIMARY KEY, bN INTEGER, xN VARCHAR) of 10 rows,
// joined by a comma list and equalities in WHERE. The comma join must be
// planned as equi-joins (no cross product), so a step takes milliseconds
// and gives the rows the same query written with JOIN ... ON gives.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <random>
#include <set>

#include "freshet/sql/compiler.h"
#include "support/zset_map.h"

namespace freshet::sql {
namespace {

std::string table_ddl(int n) {
  std::string t = std::to_string(n);
  return "CREATE TABLE t" + t + " (a" + t + " INTEGER PRIMARY KEY, b" + t + " INTEGER, x" + t + " VARCHAR(40));\n";
}

// Fills tN with rows aN = 1..10, bN a permutation of 1..10 (seeded by N).
void fill(const CompiledTable& table, int n) {
  std::vector<int> b = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  std::shuffle(b.begin(), b.end(), std::mt19937(n));
  for (int a = 1; a <= 10; ++a) {
    std::string x = "table t" + std::to_string(n) + " row " + std::to_string(a);
    table.upsert_input->push_upsert(
        RowRef(encode_row(*table.schema, {Value::integer(TypeId::kInt, a), Value::integer(TypeId::kInt, b[a - 1]), Value::varchar(x)})));
  }
}

struct StepResult {
  double step_ms = 0;
  std::map<std::string, testing::ZSetMap> views;
};

// Compiles the tables `tables` and the views, fills the tables, steps once.
StepResult run(const std::vector<int>& tables, const std::string& views) {
  std::string sql;
  for (int n : tables) sql += table_ddl(n);
  Result<std::unique_ptr<CompiledProgram>> program = compile_program(sql + views);
  EXPECT_TRUE(program.ok()) << program.status().to_string();
  if (!program.ok()) return {};
  for (int n : tables) fill(*(*program)->find_table("t" + std::to_string(n)), n);
  auto start = std::chrono::steady_clock::now();
  Status status = (*program)->circuit->step();
  StepResult result;
  result.step_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(status.ok()) << status.to_string();
  for (const CompiledView& view : (*program)->views) {
    testing::add_batch(result.views[view.name], *view.stream.current());
  }
  return result;
}

TEST(JoinOrderTest, ThreeTableCommaJoinIsAnEquiJoin) {
  // The example, against the same query written with JOIN ... ON.
  StepResult comma = run({3, 52, 59}, "CREATE VIEW v AS SELECT x3, x52, x59 FROM t3, t59, t52 WHERE a3 = b59 AND b52 = a59;");
  StepResult on = run({3, 52, 59}, "CREATE VIEW v AS SELECT x3, x52, x59 FROM t3 JOIN t59 ON a3 = b59 JOIN t52 ON b52 = a59;");
  std::printf("[ timing   ] 3-table comma join: %.3f ms to step; with JOIN ... ON: %.3f ms\n", comma.step_ms, on.step_ms);
  EXPECT_EQ(comma.views["v"], on.views["v"]);
  EXPECT_EQ(comma.views["v"].size(), 10u);
}

}  // namespace
}  // namespace freshet::sql
