// SlotProjection: the projected row has the bytes a RowBuilder makes of
// the same columns (copy_field), NULLs included, for columns in any order
// and across the bytes of a null bitmap; VARCHAR columns, or a schema
// whose types differ, are declined.
#include "freshet/types/slot_projection.h"

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "freshet/types/row.h"
#include "support/oracle.h"

namespace freshet {
namespace {

TEST(SlotProjectionTest, ProjectsAsARowBuilderCopiesTheColumns) {
  std::vector<Column> columns = {
      {"b", SqlType::boolean()},      {"t", SqlType::tinyint()},       {"s", SqlType::smallint()},
      {"i", SqlType::integer()},      {"big", SqlType::bigint()},      {"d", SqlType::double_precision()},
      {"r", SqlType::real()},         {"day", SqlType::date()},        {"ts", SqlType::timestamp()},
      {"m", SqlType::decimal(20, 2)}, {"big2", SqlType::bigint(false)}};  // 11 columns: two bitmap bytes
  const Schema schema(columns);
  std::mt19937_64 random(testing::test_seed(83));
  const std::vector<std::vector<size_t>> projections = {
      {4}, {10, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, {9, 8, 2}, {10}};
  for (const std::vector<size_t>& chosen : projections) {
    std::vector<Column> projected_columns;
    for (size_t c : chosen) projected_columns.push_back(columns[c]);
    const Schema projected(projected_columns);
    std::optional<SlotProjection> projection = SlotProjection::of(schema, chosen, projected);
    ASSERT_TRUE(projection);
    RowBuilder row(schema), expected(projected);
    for (int round = 0; round < 500; ++round) {
      for (size_t c = 0; c < schema.size(); ++c) {
        if (c != 10 && random() % 4 == 0) {
          row.set_null(c);
          continue;
        }
        const int64_t value = static_cast<int64_t>(random() % 2000) - 1000;
        switch (schema.type(c).id) {
          case TypeId::kBoolean:
            row.set_bool(c, value % 2 == 0);
            break;
          case TypeId::kDouble:
          case TypeId::kReal:
            row.set_double(c, static_cast<double>(value) / 8);
            break;
          case TypeId::kDecimal:
            row.set_decimal(c, static_cast<int128>(value) * 1000000007);
            break;
          case TypeId::kTinyInt:
            row.set_int(c, value % 100);
            break;
          default:
            row.set_int(c, value * 1000003);
            break;
        }
      }
      const std::string source = row.finish().to_bytes();
      const RowReader reader(schema, RowRef(source));
      bool want_null = false;
      for (size_t i = 0; i < chosen.size(); ++i) {
        expected.copy_field(i, reader, chosen[i]);
        want_null = want_null || reader.is_null(chosen[i]);
      }
      const std::string want = expected.finish().to_bytes();
      bool any_null = false;
      ASSERT_EQ(projection->project(RowRef(source), any_null).to_bytes(), want)
          << "round " << round << ", " << chosen.size() << " columns";
      EXPECT_EQ(any_null, want_null);
    }
  }
}

TEST(SlotProjectionTest, DeclinesVarcharAndOtherTypes) {
  const Schema schema({{"id", SqlType::bigint(false)}, {"name", SqlType::varchar()}, {"n", SqlType::integer()}});
  const Schema id({{"id", SqlType::bigint(false)}}), name({{"name", SqlType::varchar()}});
  const Schema id_name({{"id", SqlType::bigint(false)}, {"name", SqlType::varchar()}});
  EXPECT_TRUE(SlotProjection::of(schema, {0}, id));
  EXPECT_FALSE(SlotProjection::of(schema, {1}, name));
  EXPECT_FALSE(SlotProjection::of(schema, {0, 1}, id_name));
  EXPECT_FALSE(SlotProjection::of(schema, {2}, id));     // INTEGER into BIGINT
  EXPECT_FALSE(SlotProjection::of(schema, {0, 2}, id));  // two columns into one
}

}  // namespace
}  // namespace freshet
