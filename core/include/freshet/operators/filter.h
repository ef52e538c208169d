// Filter: keeps the entries a predicate accepts. Linear, so it works on
// deltas alone: filter(Δs) = Δ(filter(s)). Order is preserved, so no sort.
#pragma once

#include "freshet/circuit/circuit.h"
#include "freshet/operators/row_functions.h"

namespace freshet {

//! `description` says the condition for explain ("amount > 100"); empty when there are no words for it.
Stream filter(Stream input, RowPredicate predicate, std::string description = {});

}  // namespace freshet
