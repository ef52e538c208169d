// Anti-join: the entries of `left` whose key has no entry in `right`
// (EXCEPT, NOT EXISTS, and the unmatched half of a left outer join).
// Built from primitives:
//
//   left ────────────────────────────┬──────────► + ──► out
//                                    ▼            ▲
//   right ─► keys ─► distinct ─► ⋈ (semi-join) ─► neg
//
//   anti_join(L, R) = L − (L ⋈ distinct(keys(R)))
//
// Every primitive is incremental, so the whole is: a right key appearing
// retracts its left entries, its last entry disappearing brings them back.
//
//   step | left  | right | out
//   0    | k→a   |       | k→a
//   1    |       | k→b   | -k→a
//   2    |       | -k→b  | k→a
#pragma once

#include "freshet/circuit/circuit.h"

namespace freshet {

//! Entries of `left` whose key matches no entry of `right`; left's schemas.
Stream anti_join(Stream left, Stream right);

}  // namespace freshet
