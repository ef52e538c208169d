// Filter: keeps the entries a predicate accepts. Linear, so it works on
// deltas alone: filter(Δs) = Δ(filter(s)). Order is preserved, so no sort.
#pragma once

#include "freshet/circuit/circuit.h"
#include "freshet/operators/row_functions.h"

namespace freshet {

Stream filter(Stream input, RowPredicate predicate);

}  // namespace freshet
