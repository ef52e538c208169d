#include "plan_expand.h"

#include "freshet/operators/flat_map.h"

namespace freshet::sql {

//!   input  | +(a, b, x)                       GROUP BY ROLLUP(a, b), SUM(x)
//!   output | +(a, b, 0, x), +(a, NULL, 1, x), +(NULL, NULL, 2, x)
Stream expand_grouping_sets(Stream input, const LogicalPlan& expand) {
  const size_t keys = expand.group_count;
  const size_t width = input.key_schema().size();
  // present[s][k]: whether set s groups by key k.
  std::vector<std::vector<bool>> present;
  for (const std::vector<size_t>& set : expand.grouping_sets) {
    std::vector<bool> row(keys, false);
    for (size_t k : set) row[k] = true;
    present.push_back(std::move(row));
  }
  return flat_map(input, expand.schema, empty_schema(),
                  [present = std::move(present), keys, width](const RowReader& row, const RowReader&, size_t index,
                                                              RowBuilder& out, RowBuilder&) {
                    if (index >= present.size()) return false;
                    for (size_t k = 0; k < keys; ++k) {
                      if (present[index][k]) {
                        out.copy_field(k, row, k);
                      } else {
                        out.set_null(k);
                      }
                    }
                    out.set_int(keys, static_cast<int64_t>(index));
                    for (size_t c = keys; c < width; ++c) out.copy_field(c + 1, row, c);
                    return true;
                  },
                  "one row per grouping set (" + std::to_string(expand.grouping_sets.size()) + ")");
}

}  // namespace freshet::sql
