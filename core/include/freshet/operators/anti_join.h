// Anti-join: the entries of `left` whose key has no entry in `right`
// (NOT EXISTS, and the unmatched half of a left outer join).
//
//   anti_join(L, R) = L − (L ⋈ distinct(keys(R)))
//
// ## Design
// One operator over two arrangements (arrange.h): `left` as it is, and the
// keys of `right` counted (key → its number of entries; `right` itself when
// its value is empty). Presence of a key is its count being positive, read
// in the arrangement, so no set of keys is kept beside the counts: the
// anti-join keeps no state, and the arrangements are shared with the
// joins, DISTINCTs and anti-joins that read the same streams alike.
//
// With p(k) = [count(k) > 0] before the step and p'(k) after, the change
// for a key touched by either delta is
//
//   p(k) = p'(k)        [¬p'(k)] · ΔL(k)
//   p(k), ¬p'(k)        L(k) + ΔL(k)       (its last right entry left)
//   ¬p(k), p'(k)        −L(k)              (its first right entry came)
//
// where L(k) is the left's entries of key k before the step. A step costs
// O(|Δ| × log n) plus the left entries of keys whose presence flips.
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
