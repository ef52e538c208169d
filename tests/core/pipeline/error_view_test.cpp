// The runtime error mode 'null' through a Pipeline, and error_view
// (pipeline/error_view.h): incremental results equal a from-scratch
// recomputation at every step; error_view reads like a materialized view
// (snapshot, ad-hoc query, egress), is bounded by its retention, and
// survives checkpoints (a checkpoint without its section restores it empty).
#include <gtest/gtest.h>

#include <random>

#include "freshet/format/json_output.h"
#include "freshet/pipeline/pipeline.h"
#include "pipeline/pipeline_support.h"

namespace freshet {
namespace {

const char* kProgram = R"(
CREATE TABLE t (g INT, a INT, b INT);
CREATE MATERIALIZED VIEW r AS SELECT 36 / COUNT(*) AS r FROM t;
CREATE MATERIALIZED VIEW q AS SELECT g, a / b AS q, COALESCE(a / b, 0) AS c FROM t;
CREATE MATERIALIZED VIEW s AS SELECT g, SUM(a) / MIN(b) AS s FROM t GROUP BY g;
CREATE MATERIALIZED VIEW f WITH ('on_runtime_error' = 'fail') AS SELECT g FROM t;
)";

std::unique_ptr<Pipeline> null_pipeline(const char* program = kProgram) {
  sql::CompileOptions options;
  options.on_runtime_error = sql::RuntimeErrorMode::kNull;
  Result<std::unique_ptr<Pipeline>> created = Pipeline::create(program, options);
  EXPECT_TRUE(created.ok()) << created.status().to_string();
  return created.ok() ? std::move(*created) : nullptr;
}

std::string as_json(const Schema& schema, const BatchPtr& batch) {
  std::string out;
  format::append_insert_delete(*batch, schema, &out);
  return out;
}

uint64_t stat(const std::string& json, const std::string& key) {
  size_t at = json.find("\"" + key + "\":");
  EXPECT_NE(at, std::string::npos) << key << " not in " << json;
  return at == std::string::npos ? 0 : std::stoull(json.substr(at + key.size() + 3));
}

TEST(ErrorViewTest, NullModeMatchesRecomputationAtEveryStep) {
  std::unique_ptr<Pipeline> incremental = null_pipeline();
  ASSERT_NE(incremental, nullptr);
  std::mt19937 random(22);
  std::vector<std::string> rows;  // every row inserted so far, as JSON
  for (int step = 0; step < 12; ++step) {
    std::string batch = "[";
    const int count = step == 0 ? 0 : 1 + static_cast<int>(random() % 4);
    for (int i = 0; i < count; ++i) {
      std::string row = "{\"g\":" + std::to_string(random() % 3) + ",\"a\":" + std::to_string(random() % 7) +
                        ",\"b\":" + std::to_string(random() % 3) + "}";
      rows.push_back(row);
      batch += (i ? "," : "") + std::string("{\"insert\":") + row + "}";
    }
    testing::must_ingest(*incremental, "t", batch + "]");
    ASSERT_TRUE(incremental->step().ok());
    // From scratch: a fresh pipeline given every row at once.
    std::unique_ptr<Pipeline> scratch = null_pipeline();
    std::string all = "[";
    for (size_t i = 0; i < rows.size(); ++i) all += (i ? "," : "") + std::string("{\"insert\":") + rows[i] + "}";
    testing::must_ingest(*scratch, "t", all + "]");
    ASSERT_TRUE(scratch->step().ok());
    for (const char* view : {"r", "q", "s", "f"}) {
      EXPECT_EQ(testing::rows_of(*incremental->snapshot(view)), testing::rows_of(*scratch->snapshot(view)))
          << "view " << view << " at step " << step;
    }
  }
  EXPECT_GT(stat(incremental->stats_json(), "nulled_errors"), 0u);
}

TEST(ErrorViewTest, ListsNulledErrorsAndReadsLikeAView) {
  std::unique_ptr<Pipeline> p = null_pipeline();
  ASSERT_NE(p, nullptr);
  Result<uint64_t> egress = p->open_egress(EndpointConfig{"error_view", "", true});
  ASSERT_TRUE(egress.ok()) << egress.status().to_string();
  ASSERT_TRUE(p->step().ok());  // the empty table: 36 / 0 in r
  const Schema& schema = *p->program().find_system_view("error_view")->schema;
  std::string rows = as_json(schema, *p->snapshot("error_view"));
  EXPECT_NE(rows.find("\"table_or_view_name\":\"r\",\"message\":\"division by zero in (36 / COUNT(*))\""),
            std::string::npos)
      << rows;
  EXPECT_NE(rows.find("\\\"kind\\\":\\\"runtime_error\\\",\\\"step\\\":0"), std::string::npos) << rows;
  EXPECT_EQ(stat(p->stats_json(), "r\":{\"failed\":null,\"nulled_errors"), 1u);

  testing::must_ingest(*p, "t", R"([{"insert":{"g":1,"a":4,"b":0}}])");
  ASSERT_TRUE(p->step().ok());
  Result<QueryResult> listed = p->query("SELECT table_or_view_name, message FROM error_view ORDER BY 1, 2");
  ASSERT_TRUE(listed.ok()) << listed.status().to_string();
  // Step 0: r; step 1: q's a / b twice (q and c), s's SUM(a) / MIN(b) — and
  // not r again: the retraction of its empty group's row is not logged twice.
  std::string text;
  format::JsonRowEncoder encoder(*listed->schema);
  for (const std::string& row : listed->rows) encoder.append_row(RowRef(row), &text);
  EXPECT_EQ(text, R"json({"table_or_view_name":"q","message":"division by zero in (a / b)"})json"
                  R"json({"table_or_view_name":"q","message":"division by zero in (a / b)"})json"
                  R"json({"table_or_view_name":"r","message":"division by zero in (36 / COUNT(*))"})json"
                  R"json({"table_or_view_name":"s","message":"division by zero in (SUM(a) / MIN(b))"})json");
  testing::ReceivedState received;
  testing::drain(*p, *egress, received);
  EXPECT_EQ(received.state(), testing::rows_of(*p->snapshot("error_view")));
  EXPECT_EQ(stat(p->stats_json(), "f\":{\"failed\":null,\"nulled_errors"), 0u);
  EXPECT_EQ(stat(p->stats_json(), "r\":{\"failed\":null,\"nulled_errors"), 1u);
}

TEST(ErrorViewTest, KeepsTheNewestRowsOfItsRetention) {
  std::unique_ptr<Pipeline> p = null_pipeline(
      "CREATE TABLE t (a INT, b INT);\n"
      "CREATE VIEW q AS SELECT a / b AS q FROM t;");
  ASSERT_NE(p, nullptr);
  p->set_error_view_retention(2);
  testing::must_ingest(*p, "t", R"([{"insert":{"a":1,"b":0}},{"insert":{"a":2,"b":0}},{"insert":{"a":3,"b":0}}])");
  ASSERT_TRUE(p->step().ok());
  testing::must_ingest(*p, "t", R"([{"insert":{"a":4,"b":0}}])");
  ASSERT_TRUE(p->step().ok());
  EXPECT_EQ(p->snapshot("error_view").value()->key_count(), 2u);
  EXPECT_EQ(p->error_view().rows(), 2u);
  EXPECT_EQ(p->error_view().evicted(), 2u);
  EXPECT_EQ(stat(p->stats_json(), "evicted"), 2u);
  EXPECT_EQ(stat(p->stats_json(), "nulled_errors"), 4u);  // counted past the retention
  const Schema& schema = *p->program().find_system_view("error_view")->schema;
  EXPECT_NE(as_json(schema, *p->snapshot("error_view")).find("\\\"a\\\":4"), std::string::npos);
}

TEST(ErrorViewTest, SurvivesACheckpointAndAnOlderOneRestoresItEmpty) {
  const char* program = "CREATE TABLE t (a INT, b INT);\nCREATE MATERIALIZED VIEW q AS SELECT a / b AS q FROM t;";
  std::unique_ptr<Pipeline> p = null_pipeline(program);
  ASSERT_NE(p, nullptr);
  testing::must_ingest(*p, "t", R"([{"insert":{"a":1,"b":0}}])");
  ASSERT_TRUE(p->step().ok());
  Result<SavedState> saved = p->save_state();
  ASSERT_TRUE(saved.ok());

  std::unique_ptr<Pipeline> restored = null_pipeline(program);
  ASSERT_TRUE(restored->restore_state(*saved).ok());
  EXPECT_EQ(testing::rows_of(*restored->snapshot("error_view")), testing::rows_of(*p->snapshot("error_view")));
  EXPECT_EQ(stat(restored->stats_json(), "nulled_errors"), 1u);

  // Without the section (a checkpoint written before error_view existed).
  SavedState older;
  for (const SavedState::Section& section : saved->sections) {
    if (section.name != "error_view") older.add(section.name, saved->bytes(section));
  }
  std::unique_ptr<Pipeline> from_older = null_pipeline(program);
  ASSERT_TRUE(from_older->restore_state(older).ok());
  EXPECT_EQ(from_older->snapshot("error_view").value()->key_count(), 0u);
  EXPECT_EQ(testing::rows_of(*from_older->snapshot("q")), testing::rows_of(*p->snapshot("q")));
}

TEST(ErrorViewTest, FailModeStillFailsTheView) {
  Result<std::unique_ptr<Pipeline>> p =
      Pipeline::create("CREATE TABLE t (a INT, b INT);\nCREATE VIEW q AS SELECT a / b AS q FROM t;");
  ASSERT_TRUE(p.ok());
  testing::must_ingest(**p, "t", R"([{"insert":{"a":1,"b":0}}])");
  ASSERT_TRUE((*p)->step().ok());  // the step goes on for the other views (view_failures.cpp)
  EXPECT_EQ((*p)->view_failure("q").code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ((*p)->error_view().rows(), 0u) << "'fail' lists nothing in error_view";
}

TEST(ErrorViewTest, NullModeTypesWhatCanFailAsNullable) {
  const char* program =
      "CREATE TABLE t (a INT NOT NULL, b INT NOT NULL);\n"
      "CREATE VIEW v AS SELECT a / b AS q, a AS k, COALESCE(a / b, 0) AS c FROM t;";
  std::unique_ptr<Pipeline> p = null_pipeline(program);
  const Schema& nulls = *p->program().find_view("v")->schema;
  EXPECT_TRUE(nulls.type(0).nullable);
  EXPECT_FALSE(nulls.type(1).nullable);
  EXPECT_FALSE(nulls.type(2).nullable);
  Result<std::unique_ptr<Pipeline>> fail = Pipeline::create(program);
  EXPECT_FALSE((*fail)->program().find_view("v")->schema->type(0).nullable);
}

}  // namespace
}  // namespace freshet
