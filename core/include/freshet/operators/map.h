// Map: rewrites every entry (projection, expression evaluation, re-keying).
// Linear: map(Δs) = Δ(map(s)). Two inputs may map to the same output, so the
// output is consolidated.
#pragma once

#include "freshet/circuit/circuit.h"
#include "freshet/operators/row_functions.h"

namespace freshet {

//! Maps to a stream with the given key and value schemas.
//! `description` says what the map computes, for explain ("(region, amount * 2 AS doubled)").
Stream map(Stream input, SchemaPtr key_schema, SchemaPtr value_schema, RowMapper mapper, std::string description = {});

//! Maps and filters in one pass: entries for which `mapper` returns false are dropped.
Stream filter_map(Stream input, SchemaPtr key_schema, SchemaPtr value_schema, RowFilterMapper mapper,
                  std::string description = {});

}  // namespace freshet
