// Left outer join: every match of the inner join, plus each left entry whose
// key matches nothing on the right, with the right side absent (NULLs).
//
//   left ──┬──► ⋈ ─────────────────────┐
//          │    ▲                      ▼
//   right ─┼────┴──► anti_join ─► map(pad) ─► + ──► out
//          └─────────────▲
//
//   left_join(L, R) = (L ⋈ R) + pad(anti_join(L, R))
//
//   step | left  | right | out
//   0    | k→a   |       | k→(a, NULL)
//   1    |       | k→b   | -k→(a, NULL), k→(a, b)
#pragma once

#include <string>

#include "freshet/circuit/circuit.h"
#include "freshet/operators/row_functions.h"

namespace freshet {

//! `mapper` is called with `right` set for matches and null for unmatched
//! left entries (write NULLs for the right side's columns then).
Stream left_join(Stream left, Stream right, SchemaPtr key_schema, SchemaPtr value_schema, JoinMapper mapper);

//! The unmatched half alone: each left entry whose key matches nothing on
//! the right, through `mapper` with no right row (a WHERE NOT EXISTS's rows).
Stream left_unmatched(Stream left, Stream right, SchemaPtr key_schema, SchemaPtr value_schema, JoinMapper mapper,
                      std::string description);

}  // namespace freshet
