// INTERSECT ALL, EXCEPT ALL, INTERSECT and EXCEPT over Z-sets: per entry,
// the output's weight is a function of the two inputs' integrated weights
// m1, m2 (a negative integrated weight counts as 0):
//
//   INTERSECT ALL   min(m1, m2)
//   EXCEPT ALL      max(0, m1 - m2)
//   INTERSECT       1 when m1 > 0 and m2 > 0, else 0
//   EXCEPT          1 when m1 > 0 and m2 = 0, else 0
//
// ## Design
// State: none of its own; it reads the integral of each input in its
// arrangement (arrange.h), shared with the DISTINCTs, anti-joins and other
// set operations over the same streams (one when both sides are one
// stream). Per step, for every
// entry either delta touches, the operator reads its two weights before the
// step, adds the deltas, and outputs f(after) - f(before). A step costs
// O(|Δ| log n); it never reads an entry the deltas do not name.
//
//   EXCEPT ALL                 integrated
//   step | left | right  | m1 | m2 | out
//   0    | a, a | a      | 2  | 1  | a
//   1    |      | a      | 2  | 2  | -a
//   2    | a    |        | 3  | 2  | a
//   3    |      | -a, -a | 3  | 0  | a, a
#pragma once

#include <cstdint>

#include "freshet/circuit/circuit.h"

namespace freshet {

enum class MultisetOperation : uint8_t {
  kIntersectAll,  //!< min(m1, m2)
  kExceptAll,     //!< max(0, m1 - m2)
  kIntersect,     //!< 1 when both are positive
  kExcept,        //!< 1 when the left's is positive and the right's is not
};

//! The entries of `left` and `right` (same schemas) combined by `operation`; left's schemas.
Stream multiset_set_operation(Stream left, Stream right, MultisetOperation operation);

}  // namespace freshet
