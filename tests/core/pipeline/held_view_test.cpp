// Materialized views that read their producer's rows (held_output.h): a
// view straight over an aggregate or a DISTINCT holds no copy of its rows,
// answers the same snapshots as the view's integrated deltas, and keeps
// them across a checkpoint (the producer's state carries them).
#include <gtest/gtest.h>

#include <string>

#include "pipeline_support.h"

namespace freshet {
namespace {

std::string program(bool materialized) {
  const std::string view = materialized ? "CREATE MATERIALIZED VIEW " : "CREATE VIEW ";
  return "CREATE TABLE orders (id BIGINT, customer BIGINT, amount BIGINT);\n" + view +
         "per_customer AS SELECT customer, SUM(amount) AS total, COUNT(*) AS n FROM orders GROUP BY customer;\n" +
         view + "customers AS SELECT DISTINCT customer FROM orders;\n" + view +
         "top_amount AS SELECT customer, MAX(amount) AS top FROM orders GROUP BY customer;\n";
}

std::string orders_json(int from, int to, const char* op) {
  std::string json = "[";
  for (int i = from; i < to; ++i) {
    if (i > from) json += ",";
    json += std::string("{\"") + op + "\":{\"id\":" + std::to_string(i) + ",\"customer\":" + std::to_string(i % 1500) +
            ",\"amount\":" + std::to_string(i % 97) + "}}";
  }
  return json + "]";
}

// Every view's integrated deltas, through an egress of each.
struct Pipelines {
  std::unique_ptr<Pipeline> pipeline;
  std::map<std::string, uint64_t> egress;
  std::map<std::string, testing::ReceivedState> received;

  explicit Pipelines(bool materialized) {
    auto created = Pipeline::create(program(materialized));
    EXPECT_TRUE(created.ok()) << created.status().to_string();
    pipeline = std::move(*created);
    for (const char* view : {"per_customer", "customers", "top_amount"}) {
      EndpointConfig config;
      config.view = view;
      auto id = pipeline->open_egress(config);
      EXPECT_TRUE(id.ok()) << id.status().to_string();
      egress[view] = *id;
    }
  }
  void step() {
    ASSERT_TRUE(pipeline->step().ok());
    for (auto& [view, id] : egress) testing::drain(*pipeline, id, received[view]);
  }
};

TEST(HeldViewTest, AMaterializedAggregateHoldsItsRowsOnce) {
  Pipelines materialized(true), plain(false);
  for (Pipelines* p : {&materialized, &plain}) {
    testing::must_ingest(*p->pipeline, "orders", orders_json(0, 6000, "insert"));
    ASSERT_NO_FATAL_FAILURE(p->step());
    testing::must_ingest(*p->pipeline, "orders", orders_json(0, 2000, "delete"));
    ASSERT_NO_FATAL_FAILURE(p->step());
  }
  // 1,500 groups, 1,500 distinct customers: held by the aggregates and the
  // DISTINCT only, so materializing the views adds nothing.
  EXPECT_EQ(materialized.pipeline->memory_bytes(), plain.pipeline->memory_bytes());
  for (const char* view : {"per_customer", "customers", "top_amount"}) {
    Result<BatchPtr> rows = materialized.pipeline->snapshot(view);
    ASSERT_TRUE(rows.ok()) << rows.status().to_string();
    EXPECT_EQ(testing::rows_of(*rows), materialized.received[view].state()) << view;
    EXPECT_EQ((*rows)->key_count(), 1500u) << view;
  }

  // Across a checkpoint: the aggregates' and the DISTINCT's state bring the rows back.
  Result<SavedState> saved = materialized.pipeline->save_state();
  ASSERT_TRUE(saved.ok()) << saved.status().to_string();
  auto restored = Pipeline::create(program(true));
  ASSERT_TRUE(restored.ok());
  ASSERT_TRUE((*restored)->restore_state(*saved).ok());
  testing::must_ingest(**restored, "orders", orders_json(2000, 2100, "delete"));
  testing::must_ingest(*materialized.pipeline, "orders", orders_json(2000, 2100, "delete"));
  ASSERT_TRUE((*restored)->step().ok());
  ASSERT_NO_FATAL_FAILURE(materialized.step());
  for (const char* view : {"per_customer", "customers", "top_amount"}) {
    EXPECT_EQ(testing::rows_of(*(*restored)->snapshot(view)), materialized.received[view].state()) << view;
  }
}

TEST(HeldViewTest, AViewOverAFilterKeepsItsOwnRows) {
  // Its producer (a filter) holds nothing: the view keeps the rows.
  const char* sql = "CREATE TABLE t (a BIGINT);\nCREATE MATERIALIZED VIEW v AS SELECT a FROM t WHERE a > 0;";
  auto p = Pipeline::create(sql);
  ASSERT_TRUE(p.ok());
  testing::must_ingest(**p, "t", R"([{"insert":{"a":1}},{"insert":{"a":2}}])");
  ASSERT_TRUE((*p)->step().ok());
  EXPECT_GT((*p)->memory_bytes(), (*p)->program().circuit->state_bytes());
  EXPECT_EQ((*(*p)->snapshot("v"))->key_count(), 2u);
}

}  // namespace
}  // namespace freshet
