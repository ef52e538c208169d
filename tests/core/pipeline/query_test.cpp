// Pipeline::query (sql/adhoc_query.h): one SELECT over the current contents
// of materialized views and tables, with ORDER BY's order, LIMIT, joins,
// aggregates; errors with line and column; non-materialized relations
// refused. Materialized tables (WITH ('materialized' = 'true')) snapshot.
#include <gtest/gtest.h>

#include "freshet/format/json_output.h"
#include "freshet/pipeline/pipeline.h"
#include "pipeline/pipeline_support.h"

namespace freshet {
namespace {

const char* kProgram = R"(
CREATE TABLE orders (id BIGINT NOT NULL, customer BIGINT NOT NULL, amount DOUBLE) WITH ('materialized' = 'true');
CREATE TABLE customers (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR) WITH ('materialized' = 'true');
CREATE TABLE hidden (x INT);
CREATE MATERIALIZED VIEW by_customer AS SELECT customer, COUNT(*) AS n, SUM(amount) AS total FROM orders GROUP BY customer;
CREATE VIEW plain AS SELECT id FROM orders;
)";

std::unique_ptr<Pipeline> loaded_pipeline() {
  Result<std::unique_ptr<Pipeline>> created = Pipeline::create(kProgram);
  EXPECT_TRUE(created.ok()) << created.status().to_string();
  std::unique_ptr<Pipeline> p = std::move(*created);
  testing::must_ingest(*p, "orders",
                       R"([{"insert":{"id":1,"customer":7,"amount":20}},{"insert":{"id":2,"customer":7,"amount":5}},
                           {"insert":{"id":3,"customer":8,"amount":1}},{"insert":{"id":4,"customer":9,"amount":30}},
                           {"insert":{"id":4,"customer":9,"amount":30}}])");
  testing::must_ingest(*p, "customers", R"([{"insert":{"id":7,"name":"ann"}},{"insert":{"id":8,"name":"bob"}}])");
  EXPECT_TRUE(p->step().ok());
  return p;
}

//! The answer as JSON rows, one per line, in the answer's order.
std::string run(const Pipeline& p, const std::string& sql) {
  Result<QueryResult> result = p.query(sql);
  if (!result.ok()) return "error: " + result.status().message();
  format::JsonRowEncoder encoder(*result->schema);
  std::string text;
  for (const std::string& row : result->rows) {
    encoder.append_row(RowRef(row), &text);
    text += '\n';
  }
  return text;
}

TEST(PipelineQueryTest, OrderByLimitAndDuplicates) {
  auto p = loaded_pipeline();
  EXPECT_EQ(run(*p, "SELECT id, amount FROM orders ORDER BY amount DESC, id"),
            "{\"id\":4,\"amount\":30}\n{\"id\":4,\"amount\":30}\n{\"id\":1,\"amount\":20}\n"
            "{\"id\":2,\"amount\":5}\n{\"id\":3,\"amount\":1}\n");
  EXPECT_EQ(run(*p, "SELECT id FROM orders ORDER BY amount LIMIT 2;"), "{\"id\":3}\n{\"id\":2}\n");
  // ORDER BY a column not selected, no LIMIT: sorted by the hidden column.
  EXPECT_EQ(run(*p, "SELECT DISTINCT id FROM orders WHERE customer <> 8 ORDER BY id DESC"),
            "{\"id\":4}\n{\"id\":2}\n{\"id\":1}\n");
  EXPECT_EQ(run(*p, "SELECT id FROM orders WHERE customer = 7 ORDER BY amount"), "{\"id\":2}\n{\"id\":1}\n");
}

TEST(PipelineQueryTest, JoinsAggregatesAndViews) {
  auto p = loaded_pipeline();
  EXPECT_EQ(run(*p,
                "SELECT c.name, SUM(o.amount) AS total FROM orders o LEFT JOIN customers c ON o.customer = c.id "
                "GROUP BY c.name ORDER BY total"),
            "{\"name\":\"bob\",\"total\":1}\n{\"name\":\"ann\",\"total\":25}\n{\"name\":null,\"total\":60}\n");
  EXPECT_EQ(run(*p, "SELECT COUNT(*) AS n FROM by_customer WHERE n > 1"), "{\"n\":2}\n");
  EXPECT_EQ(run(*p, "SELECT * FROM by_customer ORDER BY customer"),
            "{\"customer\":7,\"n\":2,\"total\":25}\n{\"customer\":8,\"n\":1,\"total\":1}\n"
            "{\"customer\":9,\"n\":2,\"total\":60}\n");
  EXPECT_EQ(run(*p, "SELECT COUNT(*) AS n FROM orders WHERE amount > 1000"), "{\"n\":0}\n");
}

TEST(PipelineQueryTest, ReadsCurrentContentsAndLeavesThePipelineAlone) {
  auto p = loaded_pipeline();
  testing::must_ingest(*p, "orders", R"([{"delete":{"id":4,"customer":9,"amount":30}}])");
  EXPECT_EQ(run(*p, "SELECT COUNT(*) AS n FROM orders"), "{\"n\":5}\n");  // not stepped yet
  ASSERT_TRUE(p->step().ok());
  EXPECT_EQ(run(*p, "SELECT COUNT(*) AS n FROM orders"), "{\"n\":4}\n");
  EXPECT_EQ(p->step_count(), 2u);
}

TEST(PipelineQueryTest, Errors) {
  auto p = loaded_pipeline();
  EXPECT_EQ(run(*p, "SELECT id FROM plain"),
            "error: line 1, column 16: view 'plain' is not materialized, and queries read only materialized views and "
            "tables: declare it CREATE MATERIALIZED VIEW");
  EXPECT_EQ(run(*p, "SELECT *\nFROM orders JOIN hidden ON true"),
            "error: line 2, column 18: table 'hidden' is not materialized, and queries read only materialized views "
            "and tables: declare it WITH ('materialized' = 'true')");
  EXPECT_EQ(run(*p, "SELECT nope FROM orders"), "error: line 1, column 8: unknown column 'nope'");
  EXPECT_EQ(run(*p, "SELECT * FROM nowhere"), "error: line 1, column 15: unknown table or view 'nowhere'");
  EXPECT_EQ(run(*p, "SELECT id FROM orders WHERE"),
            "error: line 1, column 28: expected an expression, found end of input");
  EXPECT_EQ(p->query("SELECT id FROM plain").status().code(), ErrorCode::kNotMaterialized);
  EXPECT_EQ(run(*p, "SELECT 1 / (id - id) FROM orders").substr(0, 14), "error: query: ");
}

TEST(MaterializedTableTest, SnapshotsAndRefusals) {
  auto p = loaded_pipeline();
  Result<BatchPtr> rows = p->snapshot("customers");
  ASSERT_TRUE(rows.ok()) << rows.status().to_string();
  EXPECT_EQ((*rows)->key_count(), 2u);
  Result<BatchPtr> hidden = p->snapshot("hidden");
  EXPECT_EQ(hidden.status().code(), ErrorCode::kNotMaterialized);
  EXPECT_EQ(hidden.status().message(), "table 'hidden' is not materialized: declare it WITH ('materialized' = 'true')");
  // A materialized table's egress starts with its contents.
  Result<uint64_t> egress = p->open_egress({"customers", "", true});
  ASSERT_TRUE(egress.ok()) << egress.status().to_string();
  ASSERT_TRUE(p->step().ok());
  Result<std::optional<OutputChunk>> chunk = p->next_chunk(*egress);
  ASSERT_TRUE(chunk.ok() && *chunk);
  EXPECT_TRUE((*chunk)->snapshot);
}

TEST(MaterializedTableTest, SurvivesACheckpoint) {
  auto p = loaded_pipeline();
  Result<SavedState> saved = p->save_state();
  ASSERT_TRUE(saved.ok());
  Result<std::unique_ptr<Pipeline>> again = Pipeline::create(kProgram);
  ASSERT_TRUE(again.ok());
  ASSERT_TRUE((*again)->restore_state(*saved).ok());
  EXPECT_EQ(run(**again, "SELECT name FROM customers ORDER BY name"), "{\"name\":\"ann\"}\n{\"name\":\"bob\"}\n");
}

}  // namespace
}  // namespace freshet
