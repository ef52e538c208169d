// Planner: Feldera's top-k rule for window functions.
//
//   Filter (rn <= k AND ...)                      the filter stays as it is
//     Project (..., $w AS rn, ...)   [optional]
//       Window (ROW_NUMBER() -> column w)        gets rank_limit k
//
// A window with a rank limit outputs only the rows ranked <= k and walks
// each touched partition only that far: the cost of a step no longer grows
// with the partition.
#include <algorithm>

#include "expression_tools.h"
#include "planner.h"

namespace freshet::sql {
namespace {

//! The largest rank `compare` lets through when it bounds column `column` from above; none otherwise.
std::optional<uint64_t> rank_bound(const Expr& compare, size_t column) {
  if (compare.kind != ExprKind::kCompare) return std::nullopt;
  const Expr* left = compare.children[0].get();
  const Expr* right = compare.children[1].get();
  AstOperator op = compare.op;
  auto strip = [](const Expr* e) { return e->kind == ExprKind::kCast ? e->children[0].get() : e; };
  left = strip(left);
  right = strip(right);
  if (right->kind == ExprKind::kColumn && left->kind == ExprKind::kLiteral) {
    std::swap(left, right);
    op = op == AstOperator::kGreaterEqual ? AstOperator::kLessEqual
         : op == AstOperator::kGreater    ? AstOperator::kLess
         : op == AstOperator::kLessEqual  ? AstOperator::kGreaterEqual
         : op == AstOperator::kLess       ? AstOperator::kGreater
                                          : op;
  }
  if (left->kind != ExprKind::kColumn || left->column != column || right->kind != ExprKind::kLiteral ||
      right->literal.null || !right->type.is_integer()) {
    return std::nullopt;
  }
  int64_t k = right->literal.integer;
  if (op == AstOperator::kLessEqual) return static_cast<uint64_t>(std::max<int64_t>(k, 0));
  if (op == AstOperator::kLess) return static_cast<uint64_t>(std::max<int64_t>(k - 1, 0));
  if (op == AstOperator::kEqual && k == 1) return 1;
  return std::nullopt;
}

void conjuncts_of(const Expr& expr, std::vector<const Expr*>& out) {
  if (expr.kind == ExprKind::kAnd) {
    for (const ExprPtr& child : expr.children) conjuncts_of(*child, out);
  } else {
    out.push_back(&expr);
  }
}

}  // namespace

void Planner::apply_rank_limit(LogicalPlan& filter) {
  LogicalPlan* node = filter.inputs[0].get();
  const LogicalPlan* project = nullptr;
  if (node->kind == LogicalPlan::Kind::kProject) {
    project = node;
    node = node->inputs[0].get();
  }
  if (node->kind != LogicalPlan::Kind::kWindow) return;
  const size_t width = node->inputs[0]->schema->size();
  std::vector<const Expr*> conjuncts;
  conjuncts_of(*filter.predicate, conjuncts);
  for (size_t f = 0; f < node->window.functions.size(); ++f) {
    WindowFunctionKind kind = node->window.functions[f].kind;
    if (kind != WindowFunctionKind::kRowNumber && kind != WindowFunctionKind::kRank &&
        kind != WindowFunctionKind::kDenseRank) {
      continue;
    }
    // The filter's column that reads this function's result.
    std::optional<size_t> column;
    if (!project) column = width + f;
    for (size_t c = 0; project && c < project->expressions.size(); ++c) {
      const Expr& expr = *project->expressions[c];
      if (expr.kind == ExprKind::kColumn && expr.column == width + f) column = c;
    }
    if (!column) continue;
    for (const Expr* conjunct : conjuncts) {
      std::optional<uint64_t> bound = rank_bound(*conjunct, *column);
      if (!bound) continue;
      WindowOptions limited = node->window;
      limited.rank_limit = bound;
      limited.rank_function = f;
      if (!validate_window(*node->inputs[0]->schema, limited).ok()) continue;  // a function looks forward
      node->window = std::move(limited);
      return;
    }
  }
}

}  // namespace freshet::sql
