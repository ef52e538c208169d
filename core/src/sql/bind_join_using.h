// NATURAL joins and JOIN ... USING (a, b): the columns both sides share
// become equi-join keys, and a projection over the join shows each of them
// once, first (as the standard and Calcite order `SELECT *`), followed by
// the other columns of the left side, then of the right. Each side's own
// copy stays reachable by its qualified name (t.a) and t.*; a bare `a` is
// the merged column: the left one for INNER and LEFT joins, the right one
// for RIGHT, and COALESCE(left, right) for FULL.
#pragma once

#include <vector>

#include "logical_plan.h"
#include "scope.h"

namespace freshet::sql {

//! A column both sides of a join share, by name.
struct UsingColumn {
  std::string name;
  size_t left = 0, right = 0;  //!< its position in each side's scope
  SqlType type;                //!< the type both meet in
  bool both_nullable = false;  //!< whether both columns may be NULL (a FULL join's merged one may then)
};

//! The shared columns of a NATURAL join (all names visible on both sides, in
//! the left side's order) or of USING (...) (in its order); an error names
//! a column missing or ambiguous on one side, or of types that cannot meet.
Result<std::vector<UsingColumn>> using_columns(const TableRef& join, const Scope& left, const Scope& right);

//! Adds `left.a = right.a` for each shared column to the join's keys.
void add_using_keys(const std::vector<UsingColumn>& columns, LogicalPlan& join, const Scope& scope, size_t left_width);

//! The projection over the join showing the merged columns first; `scope`
//! (the join's) becomes the projection's.
PlanPtr merge_using_columns(const std::vector<UsingColumn>& columns, JoinType type, PlanPtr join, Scope& scope,
                            size_t left_width);

}  // namespace freshet::sql
