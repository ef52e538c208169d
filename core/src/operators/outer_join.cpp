#include "freshet/operators/outer_join.h"

#include "freshet/circuit/operator_description.h"
#include "freshet/operators/anti_join.h"
#include "freshet/operators/filter.h"
#include "freshet/operators/join.h"
#include "freshet/operators/map.h"
#include "freshet/operators/plus.h"

namespace freshet {
namespace {

// The entries whose key has no NULL column: the only ones that can match.
Stream non_null_keys(Stream input) {
  return filter(
      input,
      [](const RowReader& key, const RowReader&) {
        for (size_t c = 0; c < key.schema().size(); ++c) {
          if (key.is_null(c)) return false;
        }
        return true;
      },
      "keys without NULL");
}

// Rows of `row_schema` holding `side`'s columns from `offset` and NULLs elsewhere.
Stream pad(Stream side, const SchemaPtr& row_schema, size_t offset, bool side_is_key) {
  return map(side, row_schema, empty_schema(),
             [offset, side_is_key](const RowReader& key, const RowReader& value, RowBuilder& out, RowBuilder&) {
               const RowReader& row = side_is_key ? key : value;
               const size_t width = row.schema().size();
               for (size_t c = 0; c < out.schema().size(); ++c) {
                 if (c >= offset && c < offset + width) {
                   out.copy_field(c, row, c - offset);
                 } else {
                   out.set_null(c);
                 }
               }
             },
             "padded with NULLs");
}

// A side's entries as a Z-set of their value rows.
Stream value_rows(Stream side) {
  return map(side, side.value_schema_ptr(), empty_schema(),
             [](const RowReader&, const RowReader& value, RowBuilder& out, RowBuilder&) {
               for (size_t c = 0; c < value.schema().size(); ++c) out.copy_field(c, value, c);
             },
             "rows " + describe_columns(side.value_schema()));
}

// The rows of `side` (value rows, `width` columns at `offset` of the joined
// rows) that some filtered match holds, once per match: the anti-join reads
// a row as matched while its count is positive, so no DISTINCT (and no set
// of rows beside the counts) is needed.
Stream matched_rows(Stream matches, const SchemaPtr& side_schema, size_t offset) {
  return map(matches, side_schema, empty_schema(),
             [offset](const RowReader& row, const RowReader&, RowBuilder& out, RowBuilder&) {
               for (size_t c = 0; c < out.schema().size(); ++c) out.copy_field(c, row, offset + c);
             },
             "matched rows " + describe_columns(*side_schema));
}

}  // namespace

Stream outer_join(Stream left, Stream right, SchemaPtr row_schema, OuterJoinKind kind,
                  const MatchFilter& filter_matches) {
  const size_t left_width = left.value_schema().size();
  Stream left_matchable = non_null_keys(left), right_matchable = non_null_keys(right);
  Stream matches =
      join(left_matchable, right_matchable, row_schema, empty_schema(),
           [left_width](const RowReader&, const RowReader& l, const RowReader* r, RowBuilder& out, RowBuilder&) {
             for (size_t c = 0; c < l.schema().size(); ++c) out.copy_field(c, l, c);
             for (size_t c = 0; c < r->schema().size(); ++c) out.copy_field(left_width + c, *r, c);
           });
  if (filter_matches) matches = filter_matches(matches);
  std::vector<Stream> parts = {matches};
  const bool keep_left = kind != OuterJoinKind::kRight, keep_right = kind != OuterJoinKind::kLeft;
  if (!filter_matches) {
    if (keep_left) parts.push_back(pad(anti_join(left, right_matchable), row_schema, 0, false));
    if (keep_right) parts.push_back(pad(anti_join(right, left_matchable), row_schema, left_width, false));
    return plus_all(parts);
  }
  if (keep_left) {
    // One operand per statement: an operator's id counts its place in its
    // scope (circuit/operator_ids.h), so the order they are built in must be
    // the code's, not the compiler's (the matched rows first, as g++ builds
    // had it; scripts/check_operand_order.sh).
    Stream matched = matched_rows(matches, left.value_schema_ptr(), 0);
    Stream unmatched = anti_join(value_rows(left), matched);
    parts.push_back(pad(unmatched, row_schema, 0, true));
  }
  if (keep_right) {
    Stream matched = matched_rows(matches, right.value_schema_ptr(), left_width);
    Stream unmatched = anti_join(value_rows(right), matched);
    parts.push_back(pad(unmatched, row_schema, left_width, true));
  }
  return plus_all(parts);
}

}  // namespace freshet
