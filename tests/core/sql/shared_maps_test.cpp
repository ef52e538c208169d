// Shared maps (plan_sharing.cpp's shared_operator): aggregates that group
// one stream alike read one grouping map, and views that index one stream
// alike (a top-k or a window of each) read one index. Counts the maps with
// sharing on and off, checks that the operators built after a shared map
// keep the ids they have in a program without it (checkpoints name
// operators by id), and that sharing changes no result.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "freshet/sql/compiler.h"
#include "support/compile_sharing.h"
#include "support/zset_map.h"

namespace freshet::sql {
namespace {

constexpr const char* kTable = "CREATE TABLE orders (id BIGINT, customer BIGINT, amount BIGINT);\n";

constexpr const char* kViews = R"(
CREATE VIEW revenue AS SELECT customer, COUNT(*) AS orders, SUM(amount) AS total FROM orders GROUP BY customer;
CREATE VIEW largest AS SELECT customer, MAX(amount) AS largest FROM orders GROUP BY customer;
CREATE VIEW spend AS SELECT o.customer, SUM(o.amount) AS spent FROM orders AS o GROUP BY o.customer;
CREATE VIEW top3 AS SELECT id, customer, amount FROM orders ORDER BY amount DESC, id LIMIT 3;
CREATE VIEW latest AS SELECT id, customer, amount FROM orders ORDER BY id DESC LIMIT 2;
CREATE VIEW counts AS SELECT customer, COUNT(*) AS n FROM orders GROUP BY customer;
)";

std::unique_ptr<CompiledProgram> compile(const std::string& sql, bool share) {
  return testing::compile_sharing(sql, share);
}

//! The ids of the operators named `name` (all operators when empty).
std::multiset<std::string> ids_of(const CompiledProgram& program, std::string_view name = {}) {
  std::multiset<std::string> ids;
  for (size_t i = 0; i < program.circuit->operator_count(); ++i) {
    if (name.empty() || name == program.circuit->operator_at(i).name()) ids.insert(program.circuit->operator_id(i));
  }
  return ids;
}

TEST(SharedMapsTest, AggregatesGroupingOneStreamAlikeReadOneMap) {
  // revenue, largest and spend group (customer, amount) of orders by
  // customer; counts groups (customer) alone: a different map. top3 and
  // latest index all of orders by the empty key: one index.
  auto shared = compile(std::string(kTable) + kViews, true);
  auto unshared = compile(std::string(kTable) + kViews, false);
  ASSERT_TRUE(shared && unshared);
  EXPECT_EQ(ids_of(*unshared, "map").size(), 6u);
  EXPECT_EQ(ids_of(*shared, "map").size(), 3u);
  EXPECT_EQ(ids_of(*shared, "aggregate").size(), 4u);
  EXPECT_EQ(ids_of(*shared, "top_k").size(), 2u);
}

TEST(SharedMapsTest, OperatorsAfterASharedMapKeepTheirIds) {
  // `largest` alone, and after `revenue`, whose grouping map it reads: its
  // aggregate has one id in both programs (a checkpoint of either restores
  // it), and only its own map is missing from the second.
  auto alone = compile(std::string(kTable) + R"(
CREATE VIEW largest AS SELECT customer, MAX(amount) AS largest FROM orders GROUP BY customer;
CREATE VIEW latest AS SELECT id, customer, amount FROM orders ORDER BY id DESC LIMIT 2;
)",
                       true);
  auto after = compile(std::string(kTable) + R"(
CREATE VIEW revenue AS SELECT customer, COUNT(*) AS orders, SUM(amount) AS total FROM orders GROUP BY customer;
CREATE VIEW top3 AS SELECT id, customer, amount FROM orders ORDER BY amount DESC, id LIMIT 3;
CREATE VIEW largest AS SELECT customer, MAX(amount) AS largest FROM orders GROUP BY customer;
CREATE VIEW latest AS SELECT id, customer, amount FROM orders ORDER BY id DESC LIMIT 2;
)",
                       true);
  ASSERT_TRUE(alone && after);
  std::multiset<std::string> all = ids_of(*after);
  std::vector<std::string> missing;
  for (const std::string& id : ids_of(*alone)) {
    if (!all.count(id)) missing.push_back(id);
  }
  EXPECT_EQ(missing.size(), 2u) << "the grouping map and the index of the two views alone";
  std::multiset<std::string> maps = ids_of(*alone, "map");
  for (const std::string& id : missing) EXPECT_EQ(maps.count(id), 1u) << id << " is not a map";
}

TEST(SharedMapsTest, ResultsEqualTheUnsharedProgramAfterEveryStep) {
  auto shared = compile(std::string(kTable) + kViews, true);
  auto unshared = compile(std::string(kTable) + kViews, false);
  ASSERT_TRUE(shared && unshared);
  std::vector<testing::ZSetMap> shared_views(shared->views.size()), unshared_views(unshared->views.size());
  std::mt19937_64 random(41);
  std::vector<std::string> rows;  // the table's rows, as pushed
  auto row_of = [&](const CompiledProgram& program, int64_t id, int64_t customer, int64_t amount) {
    RowBuilder row(*program.find_table("orders")->schema);
    row.set_int(0, id);
    if (customer < 0) {
      row.set_null(1);
    } else {
      row.set_int(1, customer);
    }
    row.set_int(2, amount);
    return row.finish().to_bytes();
  };
  int64_t next_id = 0;
  for (int step = 0; step < 120; ++step) {
    for (int i = 0; i < 4; ++i) {
      if (!rows.empty() && random() % 3 == 0) {
        size_t at = random() % rows.size();
        for (CompiledProgram* program : {shared.get(), unshared.get()}) {
          program->find_table("orders")->input->push_row(RowRef(rows[at]), -1);
        }
        rows.erase(rows.begin() + static_cast<std::ptrdiff_t>(at));
      } else {
        const int64_t customer = random() % 8 == 0 ? -1 : static_cast<int64_t>(random() % 6);
        rows.push_back(row_of(*shared, next_id++, customer, static_cast<int64_t>(random() % 50)));
        for (CompiledProgram* program : {shared.get(), unshared.get()}) {
          program->find_table("orders")->input->push_row(RowRef(rows.back()), 1);
        }
      }
    }
    ASSERT_TRUE(shared->circuit->step().ok());
    ASSERT_TRUE(unshared->circuit->step().ok());
    for (size_t v = 0; v < shared->views.size(); ++v) {
      testing::add_batch(shared_views[v], *shared->views[v].stream.current());
      testing::add_batch(unshared_views[v], *unshared->views[v].stream.current());
      ASSERT_EQ(shared_views[v], unshared_views[v]) << "view " << shared->views[v].name << " at step " << step;
    }
  }
  for (const testing::ZSetMap& view : shared_views) EXPECT_FALSE(view.empty());
}

}  // namespace
}  // namespace freshet::sql
