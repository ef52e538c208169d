// Join: the inner equi-join of two indexed streams on their keys.
//
// ## Mathematics
// For integrals A = I(ΔA), B = I(ΔB), the change of A ⋈ B in one step is
//
//   Δ(A ⋈ B) = ΔA ⋈ z⁻¹(B)  +  A ⋈ ΔB
//
// (the second term uses A after this step's ΔA, which covers ΔA ⋈ ΔB once).
//
//   ΔA ──┬──────────────► ⋈ ◄── z⁻¹(I(B)) ◄──┐
//        └──► I(A) ──┐    │                   │
//                    ▼    ▼                   │
//   ΔB ──────────►  ⋈ ──► + ──► Δ(A ⋈ B)      │
//        └────────────────────────────────────┘
//
// ## Design
// Both integrals are arrangements (arrange.h), which other operators reading
// the same stream share; the join keeps no state of its own and seeks each
// delta key in every batch of the other side's trace: O(|Δ| × log n) plus
// the size of the output.
// Keys match on bytes, so two NULL keys match: SQL's rule that NULL matches
// nothing is the planner's to apply (it filters NULL keys out of the inputs).
//
//   step | ΔA        | ΔB        | out
//   0    | k→a       |           |
//   1    |           | k→b       | k→(a,b)
//   2    | -k→a      |           | -k→(a,b)
#pragma once

#include "freshet/circuit/circuit.h"
#include "freshet/operators/row_functions.h"

namespace freshet {

//! left ⋈ right on equal keys; `mapper` writes each output entry (its
//! `right` argument is never null here).
Stream join(Stream left, Stream right, SchemaPtr key_schema, SchemaPtr value_schema, JoinMapper mapper);

}  // namespace freshet
