// Materialized views that read their producer's rows (held_output.h): a
// view straight over an aggregate or a DISTINCT holds no copy of its rows,
// answers the same snapshots as the view's integrated deltas, and keeps
// them across a checkpoint (the producer's state carries them).
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

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

TEST(HeldViewTest, AnAggregateAnswersTheIndexOnItsGroupColumns) {
  // by_customer's first index is on its GROUP BY column: the aggregate's
  // groups answer the view and the index, the view keeps nothing. Its
  // second index (on a result column) keeps its own trace.
  const std::string view =
      "CREATE TABLE orders (id BIGINT, customer BIGINT, amount BIGINT);\n"
      "CREATE VIEW by_customer AS SELECT customer, SUM(amount) AS total, COUNT(*) AS n FROM orders GROUP BY customer;\n";
  const std::string by_key = "CREATE INDEX by_customer_key ON by_customer(customer);\n";
  const std::string by_n = "CREATE INDEX by_customer_n ON by_customer(n);\n";
  auto indexed = Pipeline::create(view + by_key), both = Pipeline::create(view + by_key + by_n),
       plain = Pipeline::create(view);
  ASSERT_TRUE(indexed.ok() && both.ok() && plain.ok());
  for (Pipeline* p : {indexed->get(), both->get(), plain->get()}) {
    testing::must_ingest(*p, "orders", orders_json(0, 6000, "insert"));
    ASSERT_TRUE(p->step().ok());
    testing::must_ingest(*p, "orders", orders_json(0, 2000, "delete"));
    ASSERT_TRUE(p->step().ok());
  }
  EXPECT_EQ((*indexed)->memory_bytes(), (*plain)->memory_bytes());
  EXPECT_GT((*both)->memory_bytes(), (*plain)->memory_bytes());

  // Lookups: a present group's one row, an absent group's none.
  auto lookup_total = [](const Pipeline& p, int64_t customer) -> std::optional<int64_t> {
    RowBuilder key(*p.index_key_schema("by_customer_key").value());
    key.set_int(0, customer);
    std::vector<std::string> rows = p.lookup("by_customer_key", key.finish()).value();
    EXPECT_LE(rows.size(), 1u);
    if (rows.empty()) return std::nullopt;
    return RowReader(*p.program().find_view("by_customer")->schema, RowRef(rows[0])).get_int(1);
  };
  // Customer 7: orders 7, 1507, 3007, 4507 (amount id % 97), the first two deleted.
  EXPECT_EQ(lookup_total(**indexed, 7), std::optional<int64_t>(3007 % 97 + 4507 % 97));
  EXPECT_EQ(lookup_total(**indexed, 1500), std::nullopt);
  Result<BatchPtr> rows = (*indexed)->snapshot("by_customer");
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ((*rows)->key_count(), 1500u);

  // Across a checkpoint: the aggregate's state answers the index again.
  Result<SavedState> saved = (*both)->save_state();
  ASSERT_TRUE(saved.ok()) << saved.status().to_string();
  auto restored = Pipeline::create(view + by_key + by_n);
  ASSERT_TRUE(restored.ok());
  ASSERT_TRUE((*restored)->restore_state(*saved).ok());
  for (int64_t customer : {7, 8, 1499, 1500}) {
    EXPECT_EQ(lookup_total(**restored, customer), lookup_total(**both, customer)) << customer;
  }
  RowBuilder n(*(*both)->index_key_schema("by_customer_n").value());
  n.set_int(0, 2);
  EXPECT_EQ((*restored)->lookup("by_customer_n", n.finish()).value().size(), 500u);  // customers 0..499 lost two orders
}

TEST(HeldViewTest, AMaterializedTableWithAPrimaryKeyHoldsItsRowsOnce) {
  // The upsert input holds the rows by key; the table keeps no copy. Its
  // snapshot is those rows, replaced and deleted by key, across a checkpoint.
  auto program = [](bool materialized) {
    return std::string("CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, v BIGINT)") +
           (materialized ? " WITH ('materialized' = 'true')" : "") + ";\nCREATE VIEW big AS SELECT id FROM t WHERE v > 5;";
  };
  auto rows_json = [](int from, int to, int v, const char* op) {
    std::string json = "[";
    for (int i = from; i < to; ++i) {
      json += std::string(i > from ? "," : "") + "{\"" + op + "\":{\"id\":" + std::to_string(i) +
              (std::string(op) == "delete" ? "" : ",\"v\":" + std::to_string(v)) + "}}";
    }
    return json + "]";
  };
  auto materialized = Pipeline::create(program(true)), plain = Pipeline::create(program(false));
  ASSERT_TRUE(materialized.ok() && plain.ok());
  for (Pipeline* p : {materialized->get(), plain->get()}) {
    testing::must_ingest(*p, "t", rows_json(0, 3000, 1, "insert"));
    ASSERT_TRUE(p->step().ok());
    testing::must_ingest(*p, "t", rows_json(0, 1000, 9, "insert"));  // replaces, by key
    testing::must_ingest(*p, "t", rows_json(2000, 2500, 0, "delete"));
    ASSERT_TRUE(p->step().ok());
  }
  EXPECT_EQ((*materialized)->memory_bytes(), (*plain)->memory_bytes());
  auto expect_rows = [](const Pipeline& p) {
    Result<BatchPtr> rows = p.snapshot("t");
    ASSERT_TRUE(rows.ok()) << rows.status().to_string();
    EXPECT_EQ((*rows)->key_count(), 2500u);
    Weight nines = 0;
    for (size_t k = 0; k < (*rows)->key_count(); ++k) {
      RowReader row(*p.program().find_table("t")->schema, (*rows)->key(k));
      EXPECT_EQ((*rows)->weight((*rows)->values_begin(k)), 1);
      nines += row.get_int(1) == 9 ? 1 : 0;
    }
    EXPECT_EQ(nines, 1000);
  };
  ASSERT_NO_FATAL_FAILURE(expect_rows(**materialized));

  Result<SavedState> saved = (*materialized)->save_state();
  ASSERT_TRUE(saved.ok()) << saved.status().to_string();
  auto restored = Pipeline::create(program(true));
  ASSERT_TRUE(restored.ok());
  ASSERT_TRUE((*restored)->restore_state(*saved).ok());
  ASSERT_NO_FATAL_FAILURE(expect_rows(**restored));
}

}  // namespace
}  // namespace freshet
