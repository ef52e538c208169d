// Sharing (plan_sharing.h): sub-plans that views, or parts of one view,
// compute alike are planned once. Counts the operators that keep join and
// DISTINCT state with sharing on and off, and checks that sharing changes
// no result: the same random changes go through the program compiled both
// ways, and every view's integrated contents are equal after every step
// (the unshared program is the oracle), also across a checkpoint restore.
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>

#include "freshet/common/byte_io.h"
#include "freshet/sql/compiler.h"
#include "support/compile_sharing.h"
#include "support/zset_map.h"

namespace freshet::sql {
namespace {

constexpr const char* kTables = R"(
CREATE TABLE orders (id BIGINT, customer BIGINT, amount BIGINT, note VARCHAR);
CREATE TABLE customers (id BIGINT, region VARCHAR, tier INT);
)";

std::unique_ptr<CompiledProgram> compile(const std::string& sql, bool share) {
  return testing::compile_sharing(sql, share);
}

//! How many operators named `name` the circuit has.
size_t count_operators(const CompiledProgram& program, std::string_view name) {
  size_t count = 0;
  for (size_t i = 0; i < program.circuit->operator_count(); ++i) {
    if (name == program.circuit->operator_at(i).name()) ++count;
  }
  return count;
}

//! Operators keeping a join's two traces (a join, or one fused with its aggregate).
size_t join_states(const CompiledProgram& program) {
  return count_operators(program, "join") + count_operators(program, "join_aggregate");
}

TEST(SharingTest, TwoViewsOverOneJoinKeepOneJoin) {
  // Different columns of the join in each view: pruning gives the shared
  // join the union of them. (A WHERE that reads one side only is pushed
  // below the join by join planning, which makes a different join: such a
  // view does not share it.)
  std::string sql = std::string(kTables) + R"(
CREATE VIEW by_region AS SELECT c.region, SUM(o.amount) AS total FROM orders o JOIN customers c ON o.customer = c.id GROUP BY c.region;
CREATE VIEW big AS SELECT o.id, c.tier FROM orders AS o JOIN customers AS c ON o.customer = c.id;
CREATE VIEW notes AS SELECT x.note FROM orders x JOIN customers y ON x.customer = y.id;
)";
  auto unshared = compile(sql, false);
  auto shared = compile(sql, true);
  ASSERT_TRUE(unshared && shared);
  EXPECT_EQ(join_states(*unshared), 3u);
  EXPECT_EQ(join_states(*shared), 1u);
  EXPECT_EQ(count_operators(*shared, "join_aggregate"), 0u);  // the aggregate reads the shared join
  EXPECT_LT(shared->circuit->operator_count(), unshared->circuit->operator_count());
}

TEST(SharingTest, ADistinctUsedTwiceIsOneDistinct) {
  std::string sql = std::string(kTables) + R"(
CREATE VIEW regions AS SELECT DISTINCT region FROM customers;
CREATE VIEW not_north AS SELECT region FROM (SELECT DISTINCT region FROM customers) AS r WHERE region <> 'north';
)";
  auto unshared = compile(sql, false);
  auto shared = compile(sql, true);
  ASSERT_TRUE(unshared && shared);
  EXPECT_EQ(count_operators(*unshared, "distinct"), 2u);
  EXPECT_EQ(count_operators(*shared, "distinct"), 1u);
  EXPECT_GE(shared->reused_subplans, 1u);
  EXPECT_EQ(unshared->reused_subplans, 0u);
}

TEST(SharingTest, ASubqueryRepeatedInOneViewIsPlannedOnce) {
  std::string sql = std::string(kTables) + R"(
CREATE VIEW twice AS
  SELECT region FROM (SELECT DISTINCT region FROM customers) AS a
  UNION ALL SELECT region FROM (SELECT DISTINCT region FROM customers) AS b;
CREATE VIEW self_join AS
  SELECT a.region, a.n, b.n AS m
  FROM (SELECT region, COUNT(*) AS n FROM customers GROUP BY region) AS a
  JOIN (SELECT region, COUNT(*) AS n FROM customers GROUP BY region) AS b ON a.region = b.region;
)";
  auto unshared = compile(sql, false);
  auto shared = compile(sql, true);
  ASSERT_TRUE(unshared && shared);
  EXPECT_EQ(count_operators(*unshared, "distinct"), 2u);
  EXPECT_EQ(count_operators(*shared, "distinct"), 1u);
  EXPECT_EQ(count_operators(*unshared, "aggregate"), 2u);
  EXPECT_EQ(count_operators(*shared, "aggregate"), 1u);
}

TEST(SharingTest, DifferentSubPlansAreNotShared) {
  // Alike but for one key, one constant, one operator or one type: each
  // keeps its own state.
  std::string sql = std::string(kTables) + R"(
CREATE VIEW on_customer AS SELECT o.id, c.region FROM orders o JOIN customers c ON o.customer = c.id;
CREATE VIEW on_id AS SELECT o.id, c.region FROM orders o JOIN customers c ON o.id = c.id;
CREATE VIEW left_on_customer AS SELECT o.id, c.region FROM orders o LEFT JOIN customers c ON o.customer = c.id;
CREATE VIEW over_50 AS SELECT DISTINCT customer FROM orders WHERE amount > 50;
CREATE VIEW from_50 AS SELECT DISTINCT customer FROM orders WHERE amount >= 50;
CREATE VIEW over_51 AS SELECT DISTINCT customer FROM orders WHERE amount > 51;
CREATE VIEW over_half AS SELECT DISTINCT customer FROM orders WHERE amount > 50.5;
)";
  auto shared = compile(sql, true);
  auto unshared = compile(sql, false);
  ASSERT_TRUE(shared && unshared);
  for (const char* name : {"join", "distinct", "filter", "aggregate", "join_aggregate"}) {
    EXPECT_EQ(count_operators(*shared, name), count_operators(*unshared, name)) << name;
  }
  EXPECT_EQ(shared->reused_subplans, 0u);
  // The three joins index the customers by id alike: one arrangement of
  // them (plan_arrange.cpp) instead of three.
  EXPECT_EQ(count_operators(*shared, "arrange") + 2, count_operators(*unshared, "arrange"));
}

//! One program compiled with and without sharing, fed the same changes.
class SharedAndUnshared {
 public:
  explicit SharedAndUnshared(std::string sql) : sql_(std::move(sql)) {
    shared_ = compile(sql_, true);
    unshared_ = compile(sql_, false);
    views_shared_.resize(shared_->views.size());
    views_unshared_.resize(unshared_->views.size());
  }

  //! A few random inserts and deletes into both tables, then one step of
  //! both programs; every view must have the same rows in both.
  void step(std::mt19937_64& random) {
    for (int i = 0; i < 6; ++i) change_order(random);
    if (random() % 3 == 0) change_customer(random);
    ASSERT_TRUE(shared_->circuit->step().ok());
    ASSERT_TRUE(unshared_->circuit->step().ok());
    for (size_t v = 0; v < shared_->views.size(); ++v) {
      testing::add_batch(views_shared_[v], *shared_->views[v].stream.current());
      testing::add_batch(views_unshared_[v], *unshared_->views[v].stream.current());
      const Schema& schema = *shared_->views[v].schema;
      ASSERT_EQ(views_shared_[v], views_unshared_[v])
          << "view " << shared_->views[v].name << "\nshared:\n"
          << testing::describe(views_shared_[v], schema, *empty_schema()) << "unshared:\n"
          << testing::describe(views_unshared_[v], schema, *empty_schema());
    }
  }

  //! Saves the shared program's state and carries on in a program compiled
  //! again from the same text.
  void restart_shared() {
    ByteWriter saved;
    shared_->circuit->save_state(saved);
    shared_ = compile(sql_, true);
    ASSERT_TRUE(shared_->circuit->restore_state(saved.data()).ok());
  }

  size_t nonempty_views() const {
    size_t count = 0;
    for (const testing::ZSetMap& view : views_unshared_) count += view.empty() ? 0 : 1;
    return count;
  }
  const CompiledProgram& shared() const { return *shared_; }
  const CompiledProgram& unshared() const { return *unshared_; }

 private:
  // Inserts a row, or deletes one inserted before, in both programs.
  void push(const std::string& table, std::vector<std::string>& live, std::mt19937_64& random,
            const std::function<void(RowBuilder&)>& fill) {
    const bool remove = !live.empty() && random() % 3 == 0;
    std::string row;
    if (remove) {
      size_t at = random() % live.size();
      row = live[at];
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(at));
    } else {
      RowBuilder builder(*shared_->find_table(table)->schema);
      fill(builder);
      row = builder.finish().to_bytes();
      live.push_back(row);
    }
    shared_->find_table(table)->input->push_row(RowRef(row), remove ? -1 : 1);
    unshared_->find_table(table)->input->push_row(RowRef(row), remove ? -1 : 1);
  }
  void change_order(std::mt19937_64& random) {
    push("orders", orders_, random, [&](RowBuilder& row) {
      row.set_int(0, static_cast<int64_t>(random() % 40));
      if (random() % 10 == 0) {
        row.set_null(1);
      } else {
        row.set_int(1, static_cast<int64_t>(random() % 12));
      }
      row.set_int(2, static_cast<int64_t>(random() % 100));
      if (random() % 8 == 0) {
        row.set_null(3);
      } else {
        row.set_string(3, std::string(1, static_cast<char>('a' + random() % 4)));
      }
    });
  }
  void change_customer(std::mt19937_64& random) {
    push("customers", customers_, random, [&](RowBuilder& row) {
      row.set_int(0, static_cast<int64_t>(random() % 12));
      static const char* kRegions[] = {"north", "south", "east"};
      if (random() % 10 == 0) {
        row.set_null(1);
      } else {
        row.set_string(1, kRegions[random() % 3]);
      }
      row.set_int(2, static_cast<int64_t>(random() % 3));
    });
  }

  std::string sql_;
  std::unique_ptr<CompiledProgram> shared_, unshared_;
  std::vector<testing::ZSetMap> views_shared_, views_unshared_;
  std::vector<std::string> orders_, customers_;
};

// Ten views over orders ⋈ customers (each a different filter, aggregate or
// projection), plus DISTINCTs, outer joins and repeated subqueries.
constexpr const char* kViews = R"(
CREATE VIEW v_region AS SELECT c.region, SUM(o.amount) AS total, COUNT(*) AS n FROM orders o JOIN customers c ON o.customer = c.id GROUP BY c.region;
CREATE VIEW v_tier_max AS SELECT c.tier, MAX(o.amount) AS top FROM orders o JOIN customers c ON o.customer = c.id GROUP BY c.tier;
CREATE VIEW v_big AS SELECT o.id, c.region FROM orders o JOIN customers c ON o.customer = c.id WHERE o.amount > 50 OR c.tier = 3;
CREATE VIEW v_count AS SELECT COUNT(*) AS n FROM orders o JOIN customers c ON o.customer = c.id;
CREATE VIEW v_notes AS SELECT x.note, y.tier FROM orders AS x JOIN customers AS y ON x.customer = y.id;
CREATE VIEW v_distinct AS SELECT DISTINCT c.region, o.note FROM orders o JOIN customers c ON o.customer = c.id;
CREATE VIEW v_tier_avg AS SELECT c.tier, AVG(o.amount) AS mean FROM orders o JOIN customers c ON o.customer = c.id WHERE c.region <> 'east' GROUP BY c.tier;
CREATE VIEW v_sum AS SELECT SUM(o.amount + c.tier) AS s FROM orders o JOIN customers c ON o.customer = c.id;
CREATE VIEW v_top AS SELECT o.id, o.amount FROM orders o JOIN customers c ON o.customer = c.id ORDER BY amount DESC, id LIMIT 3;
CREATE VIEW v_small AS SELECT o.id, c.tier FROM orders o JOIN customers c ON o.customer = c.id WHERE o.amount <= 50;
CREATE VIEW v_left AS SELECT o.id, c.region FROM orders o LEFT JOIN customers c ON o.customer = c.id;
CREATE VIEW v_left_count AS SELECT c.region, COUNT(*) AS n FROM orders o LEFT JOIN customers c ON o.customer = c.id GROUP BY c.region;
CREATE VIEW v_regions AS SELECT DISTINCT region FROM customers;
CREATE VIEW v_region_count AS SELECT COUNT(*) AS n FROM (SELECT DISTINCT region FROM customers) r;
CREATE VIEW v_twice AS SELECT region FROM (SELECT DISTINCT region FROM customers) a UNION ALL SELECT region FROM (SELECT DISTINCT region FROM customers) b;
CREATE VIEW v_over_50 AS SELECT DISTINCT customer FROM orders WHERE amount > 50;
CREATE VIEW v_from_50 AS SELECT DISTINCT customer FROM orders WHERE amount >= 50;
CREATE VIEW v_over_half AS SELECT DISTINCT customer FROM orders WHERE amount > 50.5;
CREATE VIEW v_on_id AS SELECT o.id, c.region FROM orders o JOIN customers c ON o.id = c.id;
CREATE VIEW v_nested AS SELECT region, total FROM v_region WHERE total > 100;
CREATE VIEW v_nested_again AS SELECT r.region, r.total FROM v_region r WHERE r.total > 100;
)";

TEST(SharingTest, ResultsEqualTheUnsharedProgramAfterEveryStep) {
  SharedAndUnshared run(std::string(kTables) + kViews);
  EXPECT_LT(join_states(run.shared()), join_states(run.unshared()));
  EXPECT_LT(run.shared().circuit->operator_count(), run.unshared().circuit->operator_count());
  std::mt19937_64 random(17);
  for (int step = 0; step < 150; ++step) {
    ASSERT_NO_FATAL_FAILURE(run.step(random)) << "step " << step;
    if (step == 60 || step == 110) {
      ASSERT_NO_FATAL_FAILURE(run.restart_shared());
    }
  }
  EXPECT_EQ(run.nonempty_views(), run.shared().views.size());
  EXPECT_LT(run.shared().circuit->state_bytes(), run.unshared().circuit->state_bytes());
}

TEST(SharingTest, ProgramsPlanTheSameOperatorsEveryTime) {
  // Checkpoints restore by operator position: planning is deterministic.
  std::string sql = std::string(kTables) + kViews;
  auto first = compile(sql, true);
  auto second = compile(sql, true);
  ASSERT_TRUE(first && second);
  ASSERT_EQ(first->circuit->operator_count(), second->circuit->operator_count());
  for (size_t i = 0; i < first->circuit->operator_count(); ++i) {
    EXPECT_STREQ(first->circuit->operator_at(i).name(), second->circuit->operator_at(i).name()) << i;
  }
}

}  // namespace
}  // namespace freshet::sql
