// Join planning: a logical rewrite between the binder and column pruning.
//
// A tree of inner, cross and comma joins, with the filters (WHERE) and
// column-only projections between them, is flattened into relations (the
// tree's other nodes: tables, subqueries, outer joins — outer joins are
// barriers, their inside is planned on its own) and predicates (WHERE's
// and inner joins' ON conjuncts). Then:
//  - a predicate over one relation filters that relation (pushed down);
//  - relations are joined greedily, within each group connected by
//    equalities, each next one (in written order) being one an equality
//    ties to those joined so far: those equalities become the join's keys
//    (expressions allowed on either side); any other predicate is the
//    residual of the first join where all its relations are present;
//  - groups no equality connects are joined by cross products last, in
//    written order (nothing here knows the tables' sizes).
// A projection restores the written column order and names when the order
// changed. So `FROM t3, t59, t52 WHERE a3 = b59 AND b52 = a59` is two
// equi-joins, never a cross product of the three.
//
// The ON condition of a LEFT (RIGHT) join that reads only its right (left)
// side filters that side before the join: it decides matches, never which
// rows are kept.
#pragma once

#include "logical_plan.h"

namespace freshet::sql {

//! Rewrites every join tree of `plan` as above (the root may be replaced).
void plan_join_order(PlanPtr& plan);

}  // namespace freshet::sql
