// Oracle tests of anti-join and left outer join.
#include <gtest/gtest.h>

#include "freshet/operators/anti_join.h"
#include "freshet/operators/left_join.h"
#include "support/generators.h"

namespace freshet {
namespace {

using testing::ZSetMap;

using testing::joined_schema;
using testing::write_joined;

bool has_key(const ZSetMap& map, const std::string& key) {
  auto it = map.lower_bound({key, ""});
  return it != map.end() && it->first.first == key;
}

ZSetMap reference_anti_join(const ZSetMap& left, const ZSetMap& right) {
  ZSetMap out;
  for (const auto& [entry, weight] : left) {
    if (!has_key(right, entry.first)) out[entry] = weight;
  }
  return out;
}

ZSetMap reference_left_join(const ZSetMap& left, const ZSetMap& right) {
  ZSetMap out;
  RowBuilder key(*testing::bigint_schema()), value(*joined_schema());
  auto emit = [&](const std::string& k, const std::string& l, const std::string* r, Weight weight) {
    RowReader right_reader(*testing::kxs_schema(), r ? RowRef(*r) : RowRef());
    write_joined(RowReader(*testing::bigint_schema(), RowRef(k)), RowReader(*testing::kxs_schema(), RowRef(l)),
                 r ? &right_reader : nullptr, key, value);
    std::string key_bytes = key.finish().to_bytes();
    testing::add_entry(out, key_bytes, value.finish().to_bytes(), weight);
  };
  for (const auto& [l, lw] : left) {
    bool matched = false;
    for (auto it = right.lower_bound({l.first, ""}); it != right.end() && it->first.first == l.first; ++it) {
      emit(l.first, l.second, &it->first.second, lw * it->second);
      matched = true;
    }
    if (!matched) emit(l.first, l.second, nullptr, lw);
  }
  return out;
}

TEST(AntiJoinTest, MatchesOracle) {
  testing::run_oracle(
      {testing::indexed_kxs_input(10), testing::indexed_kxs_input(10)},
      [](const std::vector<Stream>& in) { return anti_join(in[0], in[1]); },
      [](const std::vector<ZSetMap>& in) { return reference_anti_join(in[0], in[1]); }, testing::test_seed(401));
}

TEST(AntiJoinTest, MatchesOracleWithSparseRightSide) {
  // Right keys come and go often: every key's last entry leaving brings its left entries back.
  testing::run_oracle(
      {testing::indexed_kxs_input(30), testing::indexed_kxs_input(30)},
      [](const std::vector<Stream>& in) { return anti_join(in[0], in[1]); },
      [](const std::vector<ZSetMap>& in) { return reference_anti_join(in[0], in[1]); }, testing::test_seed(402),
      {.steps = 1000, .max_updates_per_step = 3, .delete_probability = 0.5});
}

TEST(LeftJoinTest, MatchesOracle) {
  testing::run_oracle(
      {testing::indexed_kxs_input(25), testing::indexed_kxs_input(25)},
      [](const std::vector<Stream>& in) {
        return left_join(in[0], in[1], testing::bigint_schema(), joined_schema(), write_joined);
      },
      [](const std::vector<ZSetMap>& in) { return reference_left_join(in[0], in[1]); }, testing::test_seed(403),
      {.steps = 1000, .max_updates_per_step = 6, .delete_probability = 0.5});
}

TEST(LeftJoinTest, UnmatchedRowsSwapForMatchesAndBack) {
  Circuit circuit;
  InputOperator* left = add_input(circuit, testing::bigint_schema(), testing::kxs_schema());
  InputOperator* right = add_input(circuit, testing::bigint_schema(), testing::kxs_schema());
  Stream out = left_join(left->stream(), right->stream(), testing::bigint_schema(), joined_schema(), write_joined);
  std::string key = encode_row(*testing::bigint_schema(), {Value::bigint(1)});
  std::string a = encode_row(*testing::kxs_schema(), {Value::bigint(1), Value::bigint(10), Value::varchar("a")});
  std::string b = encode_row(*testing::kxs_schema(), {Value::bigint(1), Value::bigint(20), Value::varchar("b")});
  auto rows = [&] {
    std::vector<std::string> text;
    for (BatchCursor c(*out.current()); c.valid(); c.next()) {
      text.push_back((c.weight() > 0 ? "+" : "-") + RowReader(*joined_schema(), c.value()).to_string());
    }
    return text;
  };
  left->push(RowRef(key), RowRef(a), 1);
  ASSERT_TRUE(circuit.step().ok());
  EXPECT_EQ(rows(), std::vector<std::string>({"+(10, NULL)"}));
  right->push(RowRef(key), RowRef(b), 1);
  ASSERT_TRUE(circuit.step().ok());
  EXPECT_EQ(rows(), std::vector<std::string>({"+(10, 'b')", "-(10, NULL)"}));  // in row byte order
  right->push(RowRef(key), RowRef(b), -1);
  ASSERT_TRUE(circuit.step().ok());
  EXPECT_EQ(rows(), std::vector<std::string>({"-(10, 'b')", "+(10, NULL)"}));
}

}  // namespace
}  // namespace freshet
