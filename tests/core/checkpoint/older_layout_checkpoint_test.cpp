// A checkpoint written before DISTINCT, EXCEPT, INTERSECT and anti-joins
// read shared arrangements, before an aggregate answered its view's first
// index and before a materialized table with a PRIMARY KEY read its rows in
// its upsert input (fixtures/set-operators-format-7, written by the engine
// of the time: fixtures/write_older_checkpoint.cc) resumes: the
// operators whose ids or kinds changed are rebuilt from the tables' rows,
// which tables with a PRIMARY KEY keep (program_change.cpp), the copies the
// views kept are read and dropped, and every view and index answers what a
// run of today's engine over the same input does, then and after more steps.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

#include "checkpoint/checkpoint_support.h"
#include "support/source_tree.h"

namespace freshet {
namespace {

namespace fs = std::filesystem;

fs::path fixtures() { return testing::source_tree() / "tests" / "core" / "checkpoint" / "fixtures"; }

std::string read_file(const fs::path& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// A writable copy of a checkpoint fixture in the temporary folder (a resume
// writes to its storage); the caller removes it.
fs::path writable_copy(const fs::path& fixture, const std::string& name) {
  const fs::path copy = fs::temp_directory_path() / ("freshet-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(copy);
  fs::copy(fixture, copy);
  return copy;
}

// Ingests the lines of a .steps file ("<table> <JSON array>", or "step").
void play(Pipeline& pipeline, const std::string& steps) {
  std::istringstream lines(steps);
  std::string line;
  while (std::getline(lines, line)) {
    if (line == "step") {
      ASSERT_TRUE(pipeline.step().ok());
      continue;
    }
    const size_t space = line.find(' ');
    testing::must_ingest(pipeline, line.substr(0, space), line.substr(space + 1));
  }
}

const char* kViews[] = {"d", "e", "i", "ia", "lj", "fj", "ne", "total", "per_a", "m"};

// Compares every view and index; adds the views holding rows to `filled`.
void expect_same_views(const Pipeline& resumed, const Pipeline& straight, const char* when,
                       std::set<std::string>& filled) {
  for (const char* view : kViews) {
    Result<BatchPtr> got = resumed.snapshot(view), want = straight.snapshot(view);
    ASSERT_TRUE(got.ok() && want.ok()) << view;
    EXPECT_EQ(testing::rows_of(*got), testing::rows_of(*want)) << "view " << view << " " << when;
    if (!(*want)->empty()) filled.insert(view);
  }
  // per_a's first index is answered by its aggregate today (its rows by key
  // were kept in the view before); the second keeps its own trace.
  for (int64_t a = 0; a < 6; ++a) {
    RowBuilder key(*resumed.index_key_schema("per_a_by_a").value());
    key.set_int(0, a);
    RowRef key_row = key.finish();
    EXPECT_EQ(resumed.lookup("per_a_by_a", key_row).value(), straight.lookup("per_a_by_a", key_row).value())
        << "a = " << a << " " << when;
  }
  for (int64_t n = 0; n < 6; ++n) {
    RowBuilder key(*resumed.index_key_schema("per_a_by_n").value());
    key.set_int(0, n);
    RowRef key_row = key.finish();
    auto got = resumed.lookup("per_a_by_n", key_row).value(), want = straight.lookup("per_a_by_n", key_row).value();
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    EXPECT_EQ(got, want) << "n = " << n << " " << when;
  }
}

TEST(OlderLayoutCheckpointTest, SetOperatorsThatKeptTheirOwnTracesResumeOverSharedArrangements) {
  const std::string sql = read_file(fixtures() / "set_operators.sql");
  const fs::path copy = writable_copy(fixtures() / "set-operators-format-7", "set-operators");
  FileCheckpointStorage storage(copy.string());
  std::unique_ptr<Pipeline> resumed = testing::must_open(sql.c_str(), storage);
  ASSERT_TRUE(resumed);
  EXPECT_EQ(resumed->checkpoint_status().restored_from, std::optional<uint64_t>(0));
  EXPECT_EQ(resumed->step_count(), 4u);

  std::unique_ptr<Pipeline> straight = testing::must_create(sql.c_str());
  ASSERT_NO_FATAL_FAILURE(play(*straight, read_file(fixtures() / "set_operators.steps")));
  std::set<std::string> filled;
  ASSERT_NO_FATAL_FAILURE(expect_same_views(*resumed, *straight, "as resumed", filled));

  // It carries on: keys flip presence on both sides, rows come and go.
  const std::string more =
      "u [{\"delete\":{\"id\":0}},{\"delete\":{\"id\":1}},{\"insert\":{\"id\":11,\"a\":2,\"b\":\"a\"}}]\n"
      "t [{\"insert\":{\"id\":11,\"a\":4,\"b\":\"z\"}},{\"delete\":{\"id\":0}},{\"insert\":{\"id\":7,\"a\":1,\"b\":\"a\"}}]\n"
      "step\n"
      "u [{\"insert\":{\"id\":0,\"a\":1,\"b\":\"b\"}},{\"delete\":{\"id\":11}}]\n"
      "t [{\"delete\":{\"id\":4}}]\n"
      "m [{\"insert\":{\"id\":2,\"v\":22}},{\"insert\":{\"id\":9,\"v\":90}}]\n"
      "step\n";
  for (Pipeline* p : {resumed.get(), straight.get()}) ASSERT_NO_FATAL_FAILURE(play(*p, more));
  ASSERT_NO_FATAL_FAILURE(expect_same_views(*resumed, *straight, "after two more steps", filled));
  EXPECT_EQ(filled.size(), std::size(kViews)) << "a view that never holds rows checks little";
  fs::remove_all(copy);
}

// A DISTINCT over a table without a PRIMARY KEY: its arrangement is new,
// and rebuilding it needs the table's rows, which the checkpoint does not
// hold (the old DISTINCT's trace was its own). Refused as a version this
// engine cannot resume, saying so and how to go on, not as damage nor as a
// program change (the program is the same).
TEST(OlderLayoutCheckpointTest, ADistinctOverAPlainTableIsRefusedWithTheWayOut) {
  const std::string sql = read_file(fixtures() / "plain_distinct.sql");
  const fs::path copy = writable_copy(fixtures() / "plain-distinct-format-7", "plain-distinct");
  FileCheckpointStorage storage(copy.string());
  Result<std::unique_ptr<Pipeline>> p = open_pipeline(sql, storage);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), ErrorCode::kCheckpointVersion) << p.status().to_string();
  EXPECT_NE(p.status().message().find("onIncompatibleCheckpoint: 'restart'"), std::string::npos)
      << p.status().message();
  EXPECT_NE(p.status().message().find("table 'events'"), std::string::npos) << p.status().message();
  fs::remove_all(copy);
}

// The JS package's format-7 fixture (tests/js/fixtures/checkpoint-format-7,
// its ORDERS_SQL): by_region, a join-aggregate with an index on its GROUP
// BY column, kept its rows by that key in the view then; today the
// aggregate answers the view and the index, and the view's old copy is
// read and dropped.
TEST(OlderLayoutCheckpointTest, TheJsFixtureResumesWithTheAggregateAnsweringItsIndex) {
  const fs::path js_fixtures = testing::source_tree() / "tests" / "js" / "fixtures";
  const std::string sql = read_file(js_fixtures / "orders.sql");  // the program the fixture was written with
  const fs::path fixture = js_fixtures / "checkpoint-format-7";
  const fs::path copy = writable_copy(fixture, "js-format-7");
  FileCheckpointStorage storage(copy.string());
  std::unique_ptr<Pipeline> p = testing::must_open(sql.c_str(), storage);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->checkpoint_status().restored_from, std::optional<uint64_t>(1));
  EXPECT_EQ(p->memory_bytes(), p->program().circuit->state_bytes()) << "the view keeps no copy";
  auto region = [&](const char* name) {
    RowBuilder key(*p->index_key_schema("by_region_idx").value());
    key.set_string(0, name);
    return p->lookup("by_region_idx", key.finish()).value();
  };
  std::vector<std::string> north = region("north");
  ASSERT_EQ(north.size(), 1u);
  RowReader row(*p->program().find_view("by_region")->schema, RowRef(north[0]));
  EXPECT_EQ(row.get_int(1), 2);
  EXPECT_EQ(row.get_double(2), 12.0);
  EXPECT_TRUE(region("south").empty());
  testing::must_ingest(*p, "orders", R"([{"insert":{"id":9,"customer":2,"amount":1}}])");
  ASSERT_TRUE(p->step().ok());
  EXPECT_EQ(region("south").size(), 1u);
  EXPECT_EQ((*p->snapshot("by_region"))->key_count(), 2u);
  fs::remove_all(copy);
}

}  // namespace
}  // namespace freshet
