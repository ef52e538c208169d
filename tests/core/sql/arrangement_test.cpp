// Shared arrangements (arrange.h, plan_arrange.cpp): joins that index one
// input by the same keys read one trace of it, whatever else differs
// between them. Counts the bytes each operator holds, and checks results
// against a from-scratch run of the same program over the final tables
// (self-joins and deletes included: the join corrects for arrangements that
// hold the step's deltas already, join_core.h).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "freshet/sql/compiler.h"
#include "support/compile_sharing.h"
#include "support/zset_map.h"

namespace freshet::sql {
namespace {

constexpr const char* kProgram = R"(
CREATE TABLE orders (id BIGINT, customer BIGINT, amount BIGINT, note VARCHAR);
CREATE TABLE customers (id BIGINT, region VARCHAR);
CREATE VIEW joined AS SELECT o.id, o.amount, c.region FROM orders o JOIN customers c ON o.customer = c.id;
CREATE VIEW north AS SELECT o.id, o.note FROM orders o JOIN customers c ON o.customer = c.id WHERE c.region = 'north';
CREATE VIEW by_region AS SELECT c.region, SUM(o.amount) AS total FROM orders o JOIN customers c ON o.customer = c.id
  WHERE c.region <> 'south' GROUP BY c.region;
)";

constexpr const char* kMoreViews = R"(
CREATE VIEW pairs AS SELECT a.id, b.id AS other FROM orders a JOIN orders b ON a.customer = b.customer WHERE a.amount < 20;
CREATE VIEW same AS SELECT a.id, b.amount FROM orders a JOIN orders b ON a.customer = b.customer;
CREATE VIEW left_joined AS SELECT o.id, c.region FROM orders o LEFT JOIN customers c ON o.customer = c.id;
CREATE VIEW full_joined AS SELECT o.id, c.id AS cid FROM orders o FULL JOIN customers c ON o.customer = c.id AND o.amount > 10;
CREATE VIEW lonely AS SELECT id FROM customers EXCEPT SELECT customer FROM orders WHERE amount < 3;
)";

std::unique_ptr<CompiledProgram> compile(const std::string& sql, bool share) {
  return testing::compile_sharing(sql, share);
}

std::string order_row(const CompiledProgram& program, int64_t id, int64_t customer, int64_t amount) {
  RowBuilder row(*program.find_table("orders")->schema);
  row.set_int(0, id);
  if (customer < 0) {
    row.set_null(1);
  } else {
    row.set_int(1, customer);
  }
  row.set_int(2, amount);
  row.set_string(3, "note " + std::to_string(id % 7));
  return row.finish().to_bytes();
}

std::string customer_row(const CompiledProgram& program, int64_t id) {
  static const char* kRegions[] = {"north", "south", "east"};
  RowBuilder row(*program.find_table("customers")->schema);
  row.set_int(0, id);
  row.set_string(1, kRegions[id % 3]);
  return row.finish().to_bytes();
}

//! State bytes of the operators named `name`, and the largest of them.
std::pair<size_t, size_t> state_of(const CompiledProgram& program, std::string_view name) {
  size_t total = 0, largest = 0;
  for (size_t i = 0; i < program.circuit->operator_count(); ++i) {
    const Operator& op = program.circuit->operator_at(i);
    if (name != op.name()) continue;
    total += op.state_bytes();
    largest = std::max(largest, op.state_bytes());
  }
  return {total, largest};
}

//! How many arrangements hold more than `bytes`.
size_t arrangements_over(const CompiledProgram& program, size_t bytes) {
  size_t count = 0;
  for (size_t i = 0; i < program.circuit->operator_count(); ++i) {
    const Operator& op = program.circuit->operator_at(i);
    if (std::string_view(op.name()) == "arrange" && op.state_bytes() > bytes) ++count;
  }
  return count;
}

void load(CompiledProgram& program, int orders) {
  for (int c = 0; c < 10; ++c) program.find_table("customers")->input->push_row(RowRef(customer_row(program, c)), 1);
  for (int o = 0; o < orders; ++o) {
    program.find_table("orders")->input->push_row(RowRef(order_row(program, o, o % 10, o % 100)), 1);
  }
  ASSERT_TRUE(program.circuit->step().ok());
}

TEST(ArrangementTest, ThreeDifferentJoinsHoldTheirCommonSideOnce) {
  auto shared = compile(kProgram, true);
  auto unshared = compile(kProgram, false);
  ASSERT_TRUE(shared && unshared);
  ASSERT_NO_FATAL_FAILURE(load(*shared, 3000));
  ASSERT_NO_FATAL_FAILURE(load(*unshared, 3000));
  // An arrangement of the 3,000 orders takes more than 8 bytes (a weight)
  // per order; one of the ten customers, or a filtered few, far less.
  EXPECT_EQ(arrangements_over(*shared, 3000 * 8), 1u) << "orders held more than once";
  EXPECT_EQ(arrangements_over(*unshared, 3000 * 8), 3u) << "each join arranges its own sides without sharing";
  const size_t orders_bytes = state_of(*shared, "arrange").second;
  // Joins keep no trace of their own.
  EXPECT_EQ(state_of(*shared, "join").first, 0u);
  EXPECT_LT(state_of(*shared, "join_aggregate").first, orders_bytes / 10);
  EXPECT_LT(shared->circuit->state_bytes(), unshared->circuit->state_bytes() * 2 / 3);
}

TEST(ArrangementTest, ALeftJoinHoldsItsLeftSideOnce) {
  auto program = compile(R"(
CREATE TABLE orders (id BIGINT, customer BIGINT, amount BIGINT, note VARCHAR);
CREATE TABLE customers (id BIGINT, region VARCHAR);
CREATE VIEW left_joined AS SELECT o.id, c.region FROM orders o LEFT JOIN customers c ON o.customer = c.id;
)", false);
  ASSERT_TRUE(program);
  ASSERT_NO_FATAL_FAILURE(load(*program, 3000));
  // The join and the anti-join of its unmatched rows read one arrangement
  // of the orders (they kept one trace each before).
  EXPECT_EQ(arrangements_over(*program, 3000 * 8), 1u);
  EXPECT_LT(program->circuit->state_bytes(), state_of(*program, "arrange").second * 3 / 2);
}

//! Every view's integrated output.
using Contents = std::vector<testing::ZSetMap>;

TEST(ArrangementTest, IncrementalResultsEqualAFromScratchRun) {
  const std::string sql = std::string(kProgram) + kMoreViews;
  for (bool share : {true, false}) {
    auto program = compile(sql, share);
    ASSERT_TRUE(program);
    Contents contents(program->views.size());
    std::vector<bool> changed(program->views.size(), false);  // every view moves at some step
    std::vector<std::string> orders, customers;
    std::mt19937_64 random(share ? 21 : 22);
    for (int step = 0; step < 120; ++step) {
      // Inserts and deletes on both sides in one step, so that both deltas
      // of a join (and both of a self-join) meet.
      for (int i = 0; i < 5; ++i) {
        if (!orders.empty() && random() % 3 == 0) {
          size_t at = random() % orders.size();
          program->find_table("orders")->input->push_row(RowRef(orders[at]), -1);
          orders.erase(orders.begin() + static_cast<std::ptrdiff_t>(at));
        } else {
          const int64_t customer = random() % 10 == 0 ? -1 : static_cast<int64_t>(random() % 14);
          orders.push_back(order_row(*program, step * 10 + i, customer, static_cast<int64_t>(random() % 40)));
          program->find_table("orders")->input->push_row(RowRef(orders.back()), 1);
        }
      }
      if (random() % 2 == 0) {
        if (!customers.empty() && random() % 2 == 0) {
          size_t at = random() % customers.size();
          program->find_table("customers")->input->push_row(RowRef(customers[at]), -1);
          customers.erase(customers.begin() + static_cast<std::ptrdiff_t>(at));
        } else {
          customers.push_back(customer_row(*program, static_cast<int64_t>(random() % 12)));
          program->find_table("customers")->input->push_row(RowRef(customers.back()), 1);
        }
      }
      ASSERT_TRUE(program->circuit->step().ok());
      for (size_t v = 0; v < program->views.size(); ++v) {
        testing::add_batch(contents[v], *program->views[v].stream.current());
        changed[v] = changed[v] || !program->views[v].stream.current()->empty();
      }
    }
    // The same program, fed the final tables in one step.
    auto scratch = compile(sql, share);
    for (const std::string& row : orders) scratch->find_table("orders")->input->push_row(RowRef(row), 1);
    for (const std::string& row : customers) scratch->find_table("customers")->input->push_row(RowRef(row), 1);
    ASSERT_TRUE(scratch->circuit->step().ok());
    for (size_t v = 0; v < program->views.size(); ++v) {
      EXPECT_EQ(contents[v], testing::to_map(*scratch->views[v].stream.current()))
          << "view " << program->views[v].name << (share ? " shared" : " unshared");
      EXPECT_TRUE(changed[v]) << program->views[v].name;
    }
  }
}

}  // namespace
}  // namespace freshet::sql
