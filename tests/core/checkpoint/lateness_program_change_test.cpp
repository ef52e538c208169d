// A program change that adds, removes or changes a table's LATENESS
// (program_change.cpp): the table keeps its rows and its watermark's
// largest time; the aggregates that forget closed groups are named from
// the lateness (planner.cpp), so they are rebuilt from the table's rows.
// Each result is compared with a fresh pipeline of the new program fed the
// same input (an oracle), where no row was dropped as late under the old
// lateness; the last test shows what happens to one that was.
#include <gtest/gtest.h>

#include <set>
#include <utility>
#include <vector>

#include "checkpoint/checkpoint_support.h"

namespace freshet {
namespace {

using testing::must_checkpoint;
using testing::must_create;
using testing::must_ingest;
using testing::rows_of;

using Steps = std::vector<std::vector<std::pair<int, int>>>;  // per step: (id, ts) rows

std::string keyed(const std::string& lateness) {
  return "CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, ts BIGINT NOT NULL" + lateness + ");"
         "CREATE MATERIALIZED VIEW v AS SELECT ts, COUNT(*) AS n FROM t GROUP BY ts;";
}

std::string keyless(const std::string& lateness, const std::string& with = "") {
  return "CREATE TABLE t (id BIGINT NOT NULL, ts BIGINT NOT NULL" + lateness + ")" + with + ";"
         "CREATE MATERIALIZED VIEW v AS SELECT ts, COUNT(*) AS n FROM t GROUP BY ts;";
}

void feed(Pipeline& p, const Steps& steps) {
  for (const auto& step : steps) {
    std::string json = "[";
    for (const auto& [id, ts] : step) {
      json += (json.size() > 1 ? "," : "") + std::string("{\"insert\":{\"id\":") + std::to_string(id) +
              ",\"ts\":" + std::to_string(ts) + "}}";
    }
    must_ingest(p, "t", json + "]");
    ASSERT_TRUE(p.step().ok());
  }
}

// The old program fed `before`, changed in place to `after_sql`, fed `after`.
Result<std::unique_ptr<Pipeline>> changed(const std::string& before_sql, const Steps& before,
                                          const std::string& after_sql, const Steps& after) {
  auto p = must_create(before_sql.c_str());
  feed(*p, before);
  Result<std::unique_ptr<Pipeline>> next = p->replace_program(after_sql, sql::CompileOptions());
  if (next.ok()) feed(**next, after);
  return next;
}

// The new program fed everything from the start.
testing::ZSetMap oracle(const std::string& sql, const Steps& before, const Steps& after) {
  auto fresh = must_create(sql.c_str());
  feed(*fresh, before);
  feed(*fresh, after);
  return rows_of(*fresh->snapshot("v"));
}

void expect_as_fresh(const std::string& before_sql, const Steps& before, const std::string& after_sql,
                     const Steps& after) {
  Result<std::unique_ptr<Pipeline>> next = changed(before_sql, before, after_sql, after);
  ASSERT_TRUE(next.ok()) << next.status().to_string();
  EXPECT_EQ(rows_of(*(*next)->snapshot("v")), oracle(after_sql, before, after));
}

// Under LATENESS 10, the time 100 closes (and forgets) the group 20.
const Steps kClosed = {{{1, 20}}, {{2, 100}}};

TEST(LatenessProgramChangeTest, AKeyedTableChangesItsLateness) {
  // Under 100 the watermark is 0: the row at 20 is on time, and joins its group.
  expect_as_fresh(keyed(" LATENESS 10"), kClosed, keyed(" LATENESS 100"), {{{3, 20}}, {{4, 60}}});
  // Shorter: the watermark the table kept (100) is 50 now; 40 is late, 70 is not.
  expect_as_fresh(keyed(" LATENESS 100"), kClosed, keyed(" LATENESS 50"), {{{3, 40}, {4, 70}}});
}

TEST(LatenessProgramChangeTest, AKeyedTableLosesItsLateness) {
  // Was CHECKPOINT_CORRUPT ('6 unexpected bytes after the end').
  expect_as_fresh(keyed(" LATENESS 10"), kClosed, keyed(""), {{{3, 20}}, {{4, 5}}});
}

TEST(LatenessProgramChangeTest, AKeyedTableGainsALateness) {
  // Was CHECKPOINT_CORRUPT ('truncated'). The watermark starts from the
  // table's rows (100): 20 and 50 are late under 10, 95 is not.
  expect_as_fresh(keyed(""), kClosed, keyed(" LATENESS 10"), {{{3, 20}, {4, 50}, {5, 95}}, {{6, 90}}});
  Result<std::unique_ptr<Pipeline>> next = changed(keyed(""), kClosed, keyed(" LATENESS 10"), {{{3, 20}}});
  ASSERT_TRUE(next.ok()) << next.status().to_string();
  EXPECT_EQ((*next)->program().find_table("t")->watermark->late_records(), 1u);
}

TEST(LatenessProgramChangeTest, AKeyedTableChangesItsLatenessThroughACheckpoint) {
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {" LATENESS 10", " LATENESS 100"}, {" LATENESS 10", ""}, {"", " LATENESS 10"}}) {
    SCOPED_TRACE(from + " -> " + to);
    MemoryCheckpointStorage storage;
    auto p = must_create(keyed(from).c_str());
    feed(*p, kClosed);
    must_checkpoint(*p, storage);
    Result<std::unique_ptr<Pipeline>> resumed = open_pipeline(keyed(to), storage);
    ASSERT_TRUE(resumed.ok()) << resumed.status().to_string();
    const Steps after = {{{3, 20}, {4, 95}}};
    feed(**resumed, after);
    EXPECT_EQ(rows_of(*(*resumed)->snapshot("v")), oracle(keyed(to), kClosed, after));
  }
}

TEST(LatenessProgramChangeTest, AMaterializedKeylessTableChangesItsLateness) {
  const std::string with = " WITH ('materialized' = 'true')";
  expect_as_fresh(keyless(" LATENESS 10", with), kClosed, keyless(" LATENESS 100", with), {{{3, 20}}, {{4, 60}}});
  // Added or removed, the table's rows come from another operator (the
  // lateness filter or the input), which has no rows to start from.
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{{" LATENESS 10", ""}, {"", " LATENESS 10"}}) {
    Result<std::unique_ptr<Pipeline>> next = changed(keyless(from, with), kClosed, keyless(to, with), {});
    ASSERT_FALSE(next.ok());
    EXPECT_EQ(next.status().code(), ErrorCode::kProgramMismatch) << next.status().to_string();
  }
}

TEST(LatenessProgramChangeTest, AKeylessTableRefusesToRebuildWhatForgotGroups) {
  // The aggregate must be rebuilt (its closed groups are gone) and the table
  // keeps no rows: refused, where it used to leave (20, 1) twice.
  for (const std::string& to : {std::string(" LATENESS 100"), std::string("")}) {
    Result<std::unique_ptr<Pipeline>> next = changed(keyless(" LATENESS 10"), kClosed, keyless(to), {});
    ASSERT_FALSE(next.ok());
    EXPECT_EQ(next.status().code(), ErrorCode::kProgramMismatch) << next.status().to_string();
    EXPECT_NE(next.status().message().find("table 't'"), std::string::npos) << next.status().to_string();
  }
  // A view that forgets nothing keeps its state: the filter only changes
  // which updates come next.
  const std::string rows = "CREATE TABLE t (id BIGINT NOT NULL, ts BIGINT NOT NULL LATENESS 10);"
                           "CREATE MATERIALIZED VIEW v AS SELECT id, ts FROM t WHERE id > 0;";
  std::string longer = rows;
  longer.replace(longer.find("LATENESS 10"), 11, "LATENESS 100");
  expect_as_fresh(rows, kClosed, longer, {{{3, 20}}});
  std::string none = rows;
  none.replace(none.find(" LATENESS 10"), 12, "");
  expect_as_fresh(rows, kClosed, none, {{{3, 20}}});
  // Added, the filter would start from rows the table does not keep: refused.
  Result<std::unique_ptr<Pipeline>> added = changed(none, kClosed, rows, {});
  ASSERT_FALSE(added.ok());
  EXPECT_EQ(added.status().code(), ErrorCode::kProgramMismatch) << added.status().to_string();
}

TEST(LatenessProgramChangeTest, RowsDroppedAsLateUnderTheOldLatenessStayDropped) {
  // 20 after 100 is late under 10: the table never kept it. After the
  // change to 100, the view is the new program's fed the input without it.
  const Steps before = {{{2, 100}}, {{1, 20}}};
  Result<std::unique_ptr<Pipeline>> next = changed(keyed(" LATENESS 10"), before, keyed(" LATENESS 100"), {{{3, 20}}});
  ASSERT_TRUE(next.ok()) << next.status().to_string();
  EXPECT_EQ(rows_of(*(*next)->snapshot("v")), oracle(keyed(" LATENESS 100"), {{{2, 100}}}, {{{3, 20}}}));
  EXPECT_NE(rows_of(*(*next)->snapshot("v")), oracle(keyed(" LATENESS 100"), before, {{{3, 20}}}));
}

// A checkpoint written before aggregates were named from the lateness: its
// evicting aggregate has an id this engine does not give (stood in for by
// another id in the same bytes). The same program resumes when the table
// keeps its rows, the aggregate rebuilt from them; otherwise it is refused
// (through a storage: CHECKPOINT_VERSION, the same program's hash).
TEST(LatenessProgramChangeTest, ACheckpointOfAnEvictingAggregateNamedTheOldWayResumesOrIsRefused) {
  for (bool keyed_table : {true, false}) {
    SCOPED_TRACE(keyed_table ? "PRIMARY KEY" : "no key");
    const std::string sql = keyed_table ? keyed(" LATENESS 10") : keyless(" LATENESS 10");
    auto p = must_create(sql.c_str());
    feed(*p, kClosed);
    Result<SavedState> state = p->save_state();
    ASSERT_TRUE(state.ok()) << state.status().to_string();
    const Circuit& circuit = *p->program().circuit;
    const std::string id = circuit.operator_id(circuit.producer_of(p->program().find_view("v")->stream));
    size_t replaced = 0;
    for (size_t at = state->payload.find(id); at != std::string::npos; at = state->payload.find(id, at)) {
      state->payload.replace(at, id.size(), "0123456789ab");
      ++replaced;
    }
    ASSERT_EQ(replaced, 2u);  // the operator's state and the view's producer
    auto resumed = must_create(sql.c_str());
    Status restored = resumed->restore_state(*state);
    if (!keyed_table) {
      EXPECT_EQ(restored.code(), ErrorCode::kProgramMismatch) << restored.to_string();
      continue;
    }
    ASSERT_TRUE(restored.ok()) << restored.to_string();
    EXPECT_EQ(resumed->rebuilt_views(), (std::set<std::string, std::less<>>{"v"}));
    const Steps after = {{{3, 95}}, {{4, 20}}};
    feed(*resumed, after);
    EXPECT_EQ(rows_of(*resumed->snapshot("v")), oracle(sql, kClosed, after));
  }
}

}  // namespace
}  // namespace freshet
