#include "expression_tools.h"

#include <algorithm>

namespace freshet::sql {

ColumnRange referenced_columns(const Expr& expr) {
  ColumnRange range;
  if (expr.kind == ExprKind::kColumn) {
    range.min = range.max = expr.column;
    return range;
  }
  for (const ExprPtr& child : expr.children) {
    ColumnRange sub = referenced_columns(*child);
    if (sub.empty()) continue;
    range.min = std::min(range.min, sub.min);
    range.max = std::max(range.max, sub.max);
  }
  return range;
}

void shift_columns(Expr& expr, size_t offset) {
  if (expr.kind == ExprKind::kColumn) expr.column -= offset;
  for (ExprPtr& child : expr.children) shift_columns(*child, offset);
}

bool contains_now(const Expr& expr) {
  if (expr.kind == ExprKind::kNow) return true;
  for (const ExprPtr& child : expr.children) {
    if (contains_now(*child)) return true;
  }
  return false;
}

void replace_now(Expr& expr, size_t column) {
  if (expr.kind == ExprKind::kNow) {
    expr.kind = ExprKind::kColumn;
    expr.column = column;
    return;
  }
  for (ExprPtr& child : expr.children) replace_now(*child, column);
}

std::vector<ExprPtr> split_conjuncts(ExprPtr expr) {
  std::vector<ExprPtr> conjuncts;
  if (expr->kind != ExprKind::kAnd) {
    conjuncts.push_back(std::move(expr));
    return conjuncts;
  }
  for (ExprPtr& child : expr->children) {
    for (ExprPtr& conjunct : split_conjuncts(std::move(child))) conjuncts.push_back(std::move(conjunct));
  }
  return conjuncts;
}

ExprPtr conjoin(std::vector<ExprPtr> conjuncts) {
  if (conjuncts.empty()) return nullptr;
  if (conjuncts.size() == 1) return std::move(conjuncts.front());
  bool nullable = false;
  for (const ExprPtr& c : conjuncts) nullable = nullable || c->type.nullable;
  return make_expr(ExprKind::kAnd, SqlType::boolean(nullable), std::move(conjuncts));
}

ColumnNames column_names(const Schema& schema) {
  ColumnNames names;
  for (size_t c = 0; c < schema.size(); ++c) names.push_back(schema.column(c).name);
  return names;
}

std::string describe_expressions(const std::vector<ExprPtr>& expressions, const Schema& input, const Schema& output) {
  const ColumnNames names = column_names(input);
  std::string text = "(";
  for (size_t i = 0; i < expressions.size(); ++i) {
    std::string expression = expressions[i]->to_string(&names);
    if (i < output.size() && output.column(i).name != expression) expression += " AS " + output.column(i).name;
    text += (i ? ", " : "") + expression;
  }
  return text + ")";
}

}  // namespace freshet::sql
