// The planner's part for GROUPING SETS (LogicalPlan::Kind::kExpand).
#pragma once

#include "freshet/circuit/circuit.h"
#include "logical_plan.h"

namespace freshet::sql {

//! Each row of `input` once per grouping set of `expand` (a flat map: no
//! state, O(|Δ| × sets) per step).
Stream expand_grouping_sets(Stream input, const LogicalPlan& expand);

}  // namespace freshet::sql
