// LATENESS group eviction with issue 17's aggregates: the accumulated ones
// (VAR_*/STDDEV_* of integers, BOOL_AND, BOOL_OR, COUNTIF, BIT_XOR) are
// forgotten when the watermark closes their group, so the state stays
// bounded; BIT_AND keeps a trace of values and is not evicted.
#include <gtest/gtest.h>

#include <random>

#include "freshet/sql/compiler.h"
#include "support/oracle.h"

namespace freshet::sql {
namespace {

//! Runs `steps` steps of rows near a moving time; returns the circuit's state bytes at `probe` and at the end.
std::pair<size_t, size_t> run(const std::string& view, int steps, int probe) {
  auto compiled = compile_program("CREATE TABLE ev (ts BIGINT NOT NULL LATENESS 20, amount BIGINT);" + view);
  EXPECT_TRUE(compiled.ok()) << compiled.status().to_string();
  if (!compiled.ok()) return {0, 0};
  CompiledProgram& program = **compiled;
  const CompiledTable& table = *program.find_table("ev");
  std::mt19937_64 random(testing::test_seed(1705));
  RowBuilder row(*table.schema);
  int64_t now = 0;
  size_t early = 0;
  for (int step = 0; step < steps; ++step) {
    for (int i = 0; i < 4; ++i) {
      row.set_int(0, now - std::uniform_int_distribution<int64_t>(0, 30)(random));
      row.set_int(1, std::uniform_int_distribution<int64_t>(-9, 9)(random));
      table.input->push_row(row.finish(), 1);
    }
    now += std::uniform_int_distribution<int64_t>(0, 3)(random);
    EXPECT_TRUE(program.circuit->step().ok());
    if (step == probe) early = program.circuit->state_bytes();
  }
  return {early, program.circuit->state_bytes()};
}

TEST(AggregateEvictionTest, AccumulatedAggregatesAreEvictedBehindTheWatermark) {
  auto [early, late] = run(
      "CREATE VIEW v AS SELECT ts, VAR_POP(amount) AS vp, STDDEV_SAMP(amount) AS sd, BOOL_AND(amount > 0) AS ba, "
      "SOME(amount > 5) AS so, COUNTIF(amount < 0) AS neg, BIT_XOR(amount) AS bx, "
      "COUNT(*) FILTER (WHERE amount > 2) AS big FROM ev GROUP BY ts;",
      8000, 1000);
  // Without eviction the groups grow with the steps (8x from step 1000 to
  // 8000); with it the state stays within the spine's merge phases (the
  // trace may hold unmerged batches at either probe: up to 2x, seen in wasm).
  EXPECT_LT(late, early * 3) << early << " -> " << late;
}

TEST(AggregateEvictionTest, BitAndKeepsItsGroups) {
  auto [early, late] = run("CREATE VIEW v AS SELECT ts, BIT_AND(amount) AS ba FROM ev GROUP BY ts;", 8000, 1000);
  EXPECT_GT(late, early * 3) << early << " -> " << late;
}

}  // namespace
}  // namespace freshet::sql
