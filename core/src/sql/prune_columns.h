// Column pruning: narrows a logical plan so that joins carry (and keep in
// their traces) only the columns something above them reads. A join of
// orders(id, customer, amount) for SUM(amount) GROUP BY region keeps
// (amount) and (region), not the whole rows.
#pragma once

#include <vector>

#include "logical_plan.h"

namespace freshet::sql {

class ColumnDemand;

//! Narrows `plan` to at least the columns marked in `needed` and returns,
//! for each old column, its new position (SIZE_MAX for a dropped one).
//! With a `demand` (plan_sharing.h), each sub-plan keeps the union of the
//! columns its users across the program need, and records what it needs.
std::vector<size_t> prune_columns(LogicalPlan& plan, const std::vector<bool>& needed, ColumnDemand* demand = nullptr);

}  // namespace freshet::sql
