// LEFT, RIGHT and FULL joins: the outer_join operator over the join's
// indexed inputs, with the ON condition's residual part as the filter of its
// matches (so `LEFT JOIN t ON t.k > 3` keeps every left row).
#include "freshet/operators/left_join.h"
#include "freshet/operators/outer_join.h"
#include "planner.h"

namespace freshet::sql {

Stream Planner::plan_outer_join(Stream left_indexed, Stream right_indexed, LogicalPlan& node,
                                const JoinMapper& concat) {
  // A LEFT JOIN on keys alone: the left_join composite (its right side has
  // lost its NULL keys already, index_join_inputs).
  if (node.join_type == JoinType::kLeft && !node.residual) {
    return left_join(left_indexed, right_indexed, node.schema, empty_schema(), concat);
  }
  OuterJoinKind kind = node.join_type == JoinType::kLeft    ? OuterJoinKind::kLeft
                       : node.join_type == JoinType::kRight ? OuterJoinKind::kRight
                                                            : OuterJoinKind::kFull;
  MatchFilter filter_matches;
  if (node.residual) {
    filter_matches = [this, &node](Stream matches) { return plan_filter(matches, std::move(node.residual)); };
  }
  return outer_join(left_indexed, right_indexed, node.schema, kind, filter_matches);
}

}  // namespace freshet::sql
