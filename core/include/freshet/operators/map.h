// Map: rewrites every entry (projection, expression evaluation, re-keying).
// Linear: map(Δs) = Δ(map(s)). Two inputs may map to the same output, so the
// output is consolidated.
#pragma once

#include <optional>
#include <vector>

#include "freshet/circuit/circuit.h"
#include "freshet/operators/row_functions.h"

namespace freshet {

//! Maps to a stream with the given key and value schemas.
//! `description` says what the map computes, for explain ("(region, amount * 2 AS doubled)").
Stream map(Stream input, SchemaPtr key_schema, SchemaPtr value_schema, RowMapper mapper, std::string description = {});

//! What a map computes when its output's key and value are columns of its
//! input's keys (an index by columns, as a join or a grouping keys its
//! input): the input columns of the key's columns and of the value's, in
//! order (no value columns and `whole_value`: the value is the input's key
//! row). Keys with a NULL are dropped when `drop_null_keys`.
struct ColumnProjection {
  std::vector<size_t> key_columns, value_columns;
  bool whole_value = false;
  bool drop_null_keys = false;
};

//! Maps and filters in one pass: entries for which `mapper` returns false are dropped.
//! With `projection` (which `mapper` must compute too), rows of fixed-width
//! columns are projected by copying their slots, with no call of `mapper`.
Stream filter_map(Stream input, SchemaPtr key_schema, SchemaPtr value_schema, RowFilterMapper mapper,
                  std::string description = {}, std::optional<ColumnProjection> projection = std::nullopt);

}  // namespace freshet
