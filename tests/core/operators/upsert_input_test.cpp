#include "freshet/operators/upsert_input.h"

#include <map>

#include <gtest/gtest.h>

#include "freshet/operators/constant.h"
#include "freshet/operators/integrate.h"
#include "support/generators.h"

namespace freshet {
namespace {

// (id BIGINT NOT NULL, x BIGINT, s VARCHAR) keyed by id.
SchemaPtr table_schema() {
  static const SchemaPtr kSchema =
      make_schema({{"id", SqlType::bigint(false)}, {"x", SqlType::bigint()}, {"s", SqlType::varchar()}});
  return kSchema;
}

std::string row(int64_t id, int64_t x, const char* s) {
  return encode_row(*table_schema(), {Value::bigint(id), Value::bigint(x), Value::varchar(s)});
}

std::string key(int64_t id) {
  static const Schema kKey({{"id", SqlType::bigint(false)}});
  return encode_row(kKey, {Value::bigint(id)});
}

TEST(UpsertInputTest, ReplacesAndDeletesByKey) {
  Circuit circuit;
  UpsertInputOperator* input = add_upsert_input(circuit, table_schema(), {0});
  Stream table = integrate(input->stream());
  input->push_upsert(RowRef(row(1, 10, "a")));
  input->push_upsert(RowRef(row(2, 20, "b")));
  ASSERT_TRUE(circuit.step().ok());
  EXPECT_EQ(testing::to_map(*input->stream().current()).size(), 2u);

  input->push_upsert(RowRef(row(1, 11, "a2")));  // replaces (1, 10, 'a')
  ASSERT_TRUE(circuit.step().ok());
  testing::ZSetMap delta = testing::to_map(*input->stream().current());
  EXPECT_EQ(delta, (testing::ZSetMap{{{row(1, 10, "a"), ""}, -1}, {{row(1, 11, "a2"), ""}, 1}}));
  EXPECT_EQ(input->lookup(RowRef(key(1))), row(1, 11, "a2"));

  input->push_delete_key(RowRef(key(2)));
  input->push_delete_key(RowRef(key(7)));  // absent: nothing
  ASSERT_TRUE(circuit.step().ok());
  EXPECT_EQ(testing::to_map(*input->stream().current()), (testing::ZSetMap{{{row(2, 20, "b"), ""}, -1}}));
  EXPECT_EQ(testing::to_map(*table.current()), (testing::ZSetMap{{{row(1, 11, "a2"), ""}, 1}}));
  EXPECT_FALSE(input->lookup(RowRef(key(2))).has_value());
}

TEST(UpsertInputTest, OperationsInOneStepApplyInOrder) {
  Circuit circuit;
  UpsertInputOperator* input = add_upsert_input(circuit, table_schema(), {0});
  input->push_upsert(RowRef(row(1, 1, "first")));
  input->push_delete_row(RowRef(row(1, 999, "any payload")));
  input->push_upsert(RowRef(row(1, 2, "last")));
  input->push_upsert(RowRef(row(3, 3, "gone")));
  input->push_delete_key(RowRef(key(3)));
  ASSERT_TRUE(circuit.step().ok());
  EXPECT_EQ(testing::to_map(*input->stream().current()), (testing::ZSetMap{{{row(1, 2, "last"), ""}, 1}}));
  // Re-inserting the same row changes nothing.
  input->push_upsert(RowRef(row(1, 2, "last")));
  ASSERT_TRUE(circuit.step().ok());
  EXPECT_TRUE(input->stream().current()->empty());
}

TEST(UpsertInputTest, MatchesAMapOverRandomOperations) {
  std::mt19937_64 random(testing::test_seed(501));
  Circuit circuit;
  UpsertInputOperator* input = add_upsert_input(circuit, table_schema(), {0});
  Stream table = integrate(input->stream());
  std::map<int64_t, std::string> expected;
  for (int step = 0; step < 1000; ++step) {
    int operations = static_cast<int>(random() % 6);
    for (int i = 0; i < operations; ++i) {
      int64_t id = static_cast<int64_t>(random() % 20);
      if (random() % 3 == 0) {
        input->push_delete_key(RowRef(key(id)));
        expected.erase(id);
      } else {
        std::string r = row(id, static_cast<int64_t>(random() % 4), random() % 2 ? "p" : "q");
        input->push_upsert(RowRef(r));
        expected[id] = r;
      }
    }
    ASSERT_TRUE(circuit.step().ok());
    testing::ZSetMap want;
    for (const auto& [id, r] : expected) want[{r, ""}] = 1;
    ASSERT_EQ(testing::to_map(*table.current()), want) << "step " << step;
  }
}

// With LATENESS 3 on x: an operation is late when its new row's x, or the
// x of the key's row before the step, is below the watermark of the step's
// start (the largest x let through before it, minus 3). The model applies
// the operations that are not late, in order, and counts the others.
TEST(UpsertInputTest, LateOperationsAreDroppedAsAModelSays) {
  std::mt19937_64 random(testing::test_seed(502));
  Circuit circuit;
  UpsertInputOperator* input = add_upsert_input(circuit, table_schema(), {0});
  input->set_lateness(1, 3);
  Stream table = integrate(input->stream());
  std::map<int64_t, std::pair<int64_t, std::string>> expected;  // id -> (x, row)
  std::optional<int64_t> max_seen;
  uint64_t late = 0;
  int64_t now = 0;
  for (int step = 0; step < 2000; ++step) {
    const auto before = expected;
    const std::optional<int64_t> cutoff = max_seen ? std::optional<int64_t>(*max_seen - 3) : std::nullopt;
    auto is_late = [&](int64_t x) { return cutoff && x < *cutoff; };
    int operations = static_cast<int>(random() % 6);
    for (int i = 0; i < operations; ++i) {
      int64_t id = static_cast<int64_t>(random() % 12);
      auto old = before.find(id);
      bool old_late = old != before.end() && is_late(old->second.first);
      if (random() % 4 == 0) {
        input->push_delete_key(RowRef(key(id)));
        if (old_late) {
          ++late;
        } else {
          expected.erase(id);
        }
      } else {
        int64_t x = now - static_cast<int64_t>(random() % 6);
        std::string r = row(id, x, random() % 2 ? "p" : "q");
        input->push_upsert(RowRef(r));
        if (old_late || is_late(x)) {
          ++late;
        } else {
          expected[id] = {x, r};
          if (!max_seen || x > *max_seen) max_seen = x;
        }
      }
    }
    now += static_cast<int64_t>(random() % 3);
    ASSERT_TRUE(circuit.step().ok());
    testing::ZSetMap want;
    for (const auto& [id, entry] : expected) want[{entry.second, ""}] = 1;
    ASSERT_EQ(testing::to_map(*table.current()), want) << "step " << step;
    ASSERT_EQ(input->watermark()->late_records(), late) << "step " << step;
  }
  EXPECT_GT(late, 100u);
}

// Each step's changes are a batch in row order: built as they come while
// rows sort as their keys do, sorted when they do not (a NULL x sets a flag
// in the row's first byte, which then sorts before the key).
TEST(UpsertInputTest, EachStepsChangesAreTheDifferenceInRowOrder) {
  std::mt19937_64 random(testing::test_seed(502));
  Circuit circuit;
  UpsertInputOperator* input = add_upsert_input(circuit, table_schema(), {0});
  std::map<int64_t, std::string> before;
  for (int step = 0; step < 400; ++step) {
    std::map<int64_t, std::string> after = before;
    const bool nulls = random() % 2 == 0;
    const int operations = static_cast<int>(random() % 40);
    for (int i = 0; i < operations; ++i) {
      int64_t id = static_cast<int64_t>(random() % 600);  // keys of one and two low bytes
      if (random() % 4 == 0) {
        input->push_delete_key(RowRef(key(id)));
        after.erase(id);
      } else {
        Value x = nulls && random() % 3 == 0 ? Value::null(TypeId::kBigInt) : Value::bigint(static_cast<int64_t>(random() % 3));
        std::string r = encode_row(*table_schema(), {Value::bigint(id), x, Value::varchar(random() % 2 ? "p" : "q")});
        input->push_upsert(RowRef(r));
        after[id] = r;
      }
    }
    ASSERT_TRUE(circuit.step().ok());
    const Batch& changes = *input->stream().current();
    for (size_t k = 1; k < changes.key_count(); ++k) ASSERT_LT(compare_rows(changes.key(k - 1), changes.key(k)), 0) << "step " << step;
    testing::ZSetMap want;
    for (const auto& [id, r] : before) testing::add_entry(want, r, "", -1);
    for (const auto& [id, r] : after) testing::add_entry(want, r, "", 1);
    ASSERT_EQ(testing::to_map(changes), want) << "step " << step;
    before = std::move(after);
  }
}

TEST(ConstantTest, EmitsOnceSoItsIntegralIsConstant) {
  Circuit circuit;
  BatchBuilder builder;
  builder.add_row(RowRef(key(5)), 1);
  Stream c = constant(circuit, make_schema({{"id", SqlType::bigint(false)}}), empty_schema(), builder.finish());
  ASSERT_TRUE(circuit.step().ok());
  EXPECT_EQ(c.current()->size(), 1u);
  ASSERT_TRUE(circuit.step().ok());
  EXPECT_TRUE(c.current()->empty());
}

}  // namespace
}  // namespace freshet
