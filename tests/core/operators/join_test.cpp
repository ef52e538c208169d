#include "freshet/operators/join.h"

#include <gtest/gtest.h>

#include "support/generators.h"

namespace freshet {
namespace {

using testing::ZSetMap;

using testing::joined_schema;
using testing::write_joined;

//! The join by definition: every pair of entries with equal keys.
ZSetMap reference_join(const ZSetMap& left, const ZSetMap& right) {
  ZSetMap out;
  RowBuilder key(*testing::bigint_schema()), value(*joined_schema());
  // Entries are ordered by key, so each key's right entries form one range.
  for (const auto& [l, lw] : left) {
    for (auto it = right.lower_bound({l.first, ""}); it != right.end() && it->first.first == l.first; ++it) {
      const auto& [r, rw] = *it;
      RowReader key_reader(*testing::bigint_schema(), RowRef(l.first));
      RowReader right_reader(*testing::kxs_schema(), RowRef(r.second));
      write_joined(key_reader, RowReader(*testing::kxs_schema(), RowRef(l.second)), &right_reader, key, value);
      std::string key_bytes = key.finish().to_bytes();
      testing::add_entry(out, key_bytes, value.finish().to_bytes(), lw * rw);
    }
  }
  return out;
}

TEST(JoinTest, MatchesOracle) {
  testing::run_oracle(
      {testing::indexed_kxs_input(20), testing::indexed_kxs_input(20)},
      [](const std::vector<Stream>& in) { return join(in[0], in[1], testing::bigint_schema(), joined_schema(), write_joined); },
      [](const std::vector<ZSetMap>& in) { return reference_join(in[0], in[1]); }, testing::test_seed(201),
      {.steps = 1000, .max_updates_per_step = 6, .delete_probability = 0.5});
}

TEST(JoinTest, MatchesOracleWithManyKeys) {
  testing::run_oracle(
      {testing::indexed_kxs_input(100), testing::indexed_kxs_input(100)},
      [](const std::vector<Stream>& in) { return join(in[0], in[1], testing::bigint_schema(), joined_schema(), write_joined); },
      [](const std::vector<ZSetMap>& in) { return reference_join(in[0], in[1]); }, testing::test_seed(202),
      {.steps = 1000, .max_updates_per_step = 10, .delete_probability = 0.5});
}

TEST(JoinTest, BothSidesChangingInOneStepCountOnce) {
  Circuit circuit;
  InputOperator* left = add_input(circuit, testing::bigint_schema(), testing::kxs_schema());
  InputOperator* right = add_input(circuit, testing::bigint_schema(), testing::kxs_schema());
  Stream out = join(left->stream(), right->stream(), testing::bigint_schema(), joined_schema(), write_joined);
  std::string key = encode_row(*testing::bigint_schema(), {Value::bigint(1)});
  std::string a = encode_row(*testing::kxs_schema(), {Value::bigint(1), Value::bigint(10), Value::varchar("a")});
  std::string b = encode_row(*testing::kxs_schema(), {Value::bigint(1), Value::bigint(20), Value::varchar("b")});
  left->push(RowRef(key), RowRef(a), 1);
  right->push(RowRef(key), RowRef(b), 1);
  ASSERT_TRUE(circuit.step().ok());
  ASSERT_EQ(out.current()->size(), 1u);
  EXPECT_EQ(out.current()->weight(0), 1);
  EXPECT_EQ(RowReader(*joined_schema(), out.current()->value(0)).to_string(), "(10, 'b')");
  // Nothing changes: nothing comes out.
  ASSERT_TRUE(circuit.step().ok());
  EXPECT_TRUE(out.current()->empty());
  // Deleting both at once retracts the match exactly once.
  left->push(RowRef(key), RowRef(a), -1);
  right->push(RowRef(key), RowRef(b), -1);
  ASSERT_TRUE(circuit.step().ok());
  ASSERT_EQ(out.current()->size(), 1u);
  EXPECT_EQ(out.current()->weight(0), -1);
}

}  // namespace
}  // namespace freshet
