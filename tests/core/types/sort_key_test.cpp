#include "freshet/types/sort_key.h"

#include <algorithm>
#include <random>

#include <gtest/gtest.h>

#include "support/oracle.h"

namespace freshet {
namespace {

// Reference order of one column: NULL handling, then the value, then direction.
int compare_values(const Value& a, const Value& b, const SortColumn& sort) {
  if (a.is_null() || b.is_null()) {
    if (a.is_null() && b.is_null()) return 0;
    return a.is_null() == sort.nulls_first ? -1 : 1;
  }
  int c = 0;
  switch (a.type()) {
    case TypeId::kDouble: c = a.as_double() < b.as_double() ? -1 : a.as_double() > b.as_double(); break;
    case TypeId::kVarchar: c = a.as_string().compare(b.as_string()); c = c < 0 ? -1 : c > 0; break;
    case TypeId::kDecimal: c = a.as_decimal() < b.as_decimal() ? -1 : a.as_decimal() > b.as_decimal(); break;
    default: c = a.as_int() < b.as_int() ? -1 : a.as_int() > b.as_int(); break;
  }
  return sort.descending ? -c : c;
}

TEST(SortKeyTest, MemcmpOrderIsSqlOrder) {
  std::mt19937_64 random(testing::test_seed(7));
  Schema schema({{"i", SqlType::bigint()}, {"d", SqlType::double_precision()}, {"s", SqlType::varchar()},
                 {"m", SqlType::decimal(30, 2)}});
  std::vector<std::string> texts = {"", "a", "ab", "b", std::string("a\0b", 3), "\xff", "abc", std::string("\0", 1)};
  for (int round = 0; round < 200; ++round) {
    std::vector<SortColumn> columns;
    for (size_t c : {size_t{2}, size_t{0}, size_t{1}, size_t{3}}) {
      columns.push_back({c, std::bernoulli_distribution(0.5)(random), std::bernoulli_distribution(0.5)(random)});
    }
    auto random_row = [&] {
      std::vector<Value> row;
      auto maybe_null = [&](Value v, TypeId t) { return std::bernoulli_distribution(0.15)(random) ? Value::null(t) : v; };
      row.push_back(maybe_null(Value::bigint(std::uniform_int_distribution<int64_t>(-3, 3)(random) * 1000000007), TypeId::kBigInt));
      row.push_back(maybe_null(Value::double_precision(std::uniform_int_distribution<int>(-4, 4)(random) * 0.75), TypeId::kDouble));
      row.push_back(maybe_null(Value::varchar(texts[random() % texts.size()]), TypeId::kVarchar));
      row.push_back(maybe_null(Value::decimal(std::uniform_int_distribution<int64_t>(-5, 5)(random), 2), TypeId::kDecimal));
      return row;
    };
    std::vector<Value> a = random_row(), b = random_row();
    int expected = 0;
    for (const SortColumn& sort : columns) {
      expected = compare_values(a[sort.column], b[sort.column], sort);
      if (expected != 0) break;
    }
    std::string row_a = encode_row(schema, a), row_b = encode_row(schema, b), key_a, key_b;
    append_sort_key(RowReader(schema, RowRef(row_a)), columns, &key_a);
    append_sort_key(RowReader(schema, RowRef(row_b)), columns, &key_b);
    int actual = key_a.compare(key_b);
    actual = actual < 0 ? -1 : actual > 0;
    EXPECT_EQ(actual, expected) << RowReader(schema, RowRef(row_a)).to_string() << " vs "
                                << RowReader(schema, RowRef(row_b)).to_string();
  }
}

// The key's bytes are part of checkpoints (top-k and window traces hold
// encoded rows): they must stay what the format has always been. Strings
// with and without zero bytes, every type, both directions, against the
// encoding written out a byte at a time.
TEST(SortKeyTest, TheBytesAreTheFormats) {
  Schema schema({{"i", SqlType::bigint()}, {"d", SqlType::double_precision()}, {"s", SqlType::varchar()}});
  const std::vector<Value> row = {Value::bigint(-2), Value::double_precision(0.5),
                                  Value::varchar(std::string("a\0b\0", 4))};
  const std::string encoded = encode_row(schema, row);
  std::string key;
  append_sort_key(RowReader(schema, RowRef(encoded)), {{0, false, false}, {1, true, false}, {2, false, false}}, &key);
  std::string expected;
  auto big_endian = [&](uint64_t bits) {
    for (int i = 7; i >= 0; --i) expected.push_back(static_cast<char>((bits >> (8 * i)) & 0xff));
  };
  expected.push_back(0x01);
  big_endian(static_cast<uint64_t>(int64_t{-2}) ^ (uint64_t{1} << 63));
  expected.push_back(0x01);
  const size_t descending_from = expected.size();
  big_endian(0x3fe0000000000000ULL ^ (uint64_t{1} << 63));  // 0.5, positive: the sign bit flipped
  for (size_t i = descending_from; i < expected.size(); ++i) expected[i] = static_cast<char>(~expected[i]);
  expected.push_back(0x01);
  expected += std::string(
      "a\0\xff"
      "b\0\xff"
      "\0\x01",
      8);
  EXPECT_EQ(key, expected);
}

TEST(SortKeyTest, SortedRowCarriesItsPayload) {
  Schema schema({{"s", SqlType::varchar()}, {"n", SqlType::integer()}});
  std::string row = encode_row(schema, {Value::varchar("pear"), Value::integer(TypeId::kInt, 4)});
  std::string entry;
  encode_sorted_row(RowReader(schema, RowRef(row)), {{1, true, false}}, &entry);
  EXPECT_EQ(sorted_row_payload(RowRef(entry)).to_bytes(), row);
}

}  // namespace
}  // namespace freshet
