// Oracle test of flat_map: each (k, x, s) row becomes |x| % 4 rows (x, i)
// valued s, i = 0, 1, ...; rows of different inputs collide (same x and s),
// so the output's consolidation is exercised as well.
#include "freshet/operators/flat_map.h"

#include <gtest/gtest.h>

#include "support/generators.h"

namespace freshet {
namespace {

using testing::ZSetMap;

SchemaPtr xi_schema() {
  static const SchemaPtr kSchema = make_schema({{"x", SqlType::bigint()}, {"i", SqlType::bigint()}});
  return kSchema;
}

SchemaPtr s_schema() {
  static const SchemaPtr kSchema = make_schema({{"s", SqlType::varchar()}});
  return kSchema;
}

bool expand(const RowReader& row, size_t index, RowBuilder& key, RowBuilder& value) {
  if (row.is_null(1)) return false;
  int64_t x = row.get_int(1);
  if (index >= static_cast<size_t>((x < 0 ? -x : x) % 4)) return false;
  key.set_int(0, x);
  key.set_int(1, static_cast<int64_t>(index));
  value.copy_field(0, row, 2);
  return true;
}

TEST(FlatMapTest, MatchesOracle) {
  testing::run_oracle(
      {testing::kxs_input()},
      [](const std::vector<Stream>& in) {
        return flat_map(in[0], xi_schema(), s_schema(),
                        [](const RowReader& k, const RowReader&, size_t index, RowBuilder& key, RowBuilder& value) {
                          return expand(k, index, key, value);
                        });
      },
      [](const std::vector<ZSetMap>& in) {
        ZSetMap out;
        RowBuilder key(*xi_schema()), value(*s_schema());
        for (const auto& [entry, weight] : in[0]) {
          RowReader row(*testing::kxs_schema(), RowRef(entry.first));
          for (size_t index = 0; expand(row, index, key, value); ++index) {
            std::string key_bytes = key.finish().to_bytes();
            testing::add_entry(out, key_bytes, value.finish().to_bytes(), weight);
          }
          key.finish();
          value.finish();
        }
        return out;
      },
      testing::test_seed(131));
}

}  // namespace
}  // namespace freshet
