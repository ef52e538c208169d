#include "subquery_tools.h"

namespace freshet::sql {

AstExprPtr clone_ast(const AstExpr& ast) {
  auto copy = std::make_unique<AstExpr>();
  copy->kind = ast.kind;
  copy->position = ast.position;
  copy->operator_position = ast.operator_position;
  copy->op = ast.op;
  copy->literal_kind = ast.literal_kind;
  copy->text = ast.text;
  copy->names = ast.names;
  copy->name = ast.name;
  copy->negated = ast.negated;
  copy->distinct = ast.distinct;
  copy->star = ast.star;
  for (const AstExprPtr& child : ast.children) copy->children.push_back(child ? clone_ast(*child) : nullptr);
  if (ast.case_operand) copy->case_operand = clone_ast(*ast.case_operand);
  if (ast.else_result) copy->else_result = clone_ast(*ast.else_result);
  copy->cast_type = ast.cast_type;
  copy->unit = ast.unit;
  copy->unit_position = ast.unit_position;
  copy->subquery = ast.subquery;
  copy->all = ast.all;
  return copy;
}

namespace {

std::vector<ExprPtr> clone_all(const std::vector<ExprPtr>& exprs) {
  std::vector<ExprPtr> copies;
  for (const ExprPtr& expr : exprs) copies.push_back(expr ? clone_expr(*expr) : nullptr);
  return copies;
}

}  // namespace

PlanPtr clone_plan(const LogicalPlan& plan) {
  auto copy = std::make_unique<LogicalPlan>();
  copy->kind = plan.kind;
  copy->schema = plan.schema;
  for (const PlanPtr& input : plan.inputs) copy->inputs.push_back(clone_plan(*input));
  copy->source = plan.source;
  if (plan.predicate) copy->predicate = clone_expr(*plan.predicate);
  copy->expressions = clone_all(plan.expressions);
  copy->join_type = plan.join_type;
  copy->left_keys = clone_all(plan.left_keys);
  copy->right_keys = clone_all(plan.right_keys);
  if (plan.residual) copy->residual = clone_expr(*plan.residual);
  copy->left_columns = plan.left_columns;
  copy->right_columns = plan.right_columns;
  copy->group_count = plan.group_count;
  copy->aggregates = plan.aggregates;
  copy->global = plan.global;
  copy->order = plan.order;
  copy->limit = plan.limit;
  copy->time_window = plan.time_window;
  copy->partition_by = clone_all(plan.partition_by);
  copy->window = plan.window;
  return copy;
}

namespace {

bool is_subquery_node(const AstExpr& ast) {
  return ast.kind == AstExprKind::kSubquery || ast.kind == AstExprKind::kExists ||
         ast.kind == AstExprKind::kInSubquery || ast.kind == AstExprKind::kQuantified;
}

}  // namespace

std::vector<const AstExpr*> split_ast_conjuncts(const AstExpr& ast) {
  if (ast.kind != AstExprKind::kBinary || ast.op != AstOperator::kAnd) return {&ast};
  std::vector<const AstExpr*> conjuncts = split_ast_conjuncts(*ast.children[0]);
  for (const AstExpr* right : split_ast_conjuncts(*ast.children[1])) conjuncts.push_back(right);
  return conjuncts;
}

bool contains_subquery(const AstExpr& ast) {
  if (is_subquery_node(ast)) return true;
  for (const AstExprPtr& child : ast.children) {
    if (child && contains_subquery(*child)) return true;
  }
  return (ast.case_operand && contains_subquery(*ast.case_operand)) ||
         (ast.else_result && contains_subquery(*ast.else_result));
}

void for_each_column_ref(const AstExpr& ast, const std::function<void(const AstExpr&)>& visit) {
  if (ast.kind == AstExprKind::kColumnRef) visit(ast);
  for (const AstExprPtr& child : ast.children) {
    if (child) for_each_column_ref(*child, visit);
  }
  if (ast.case_operand) for_each_column_ref(*ast.case_operand, visit);
  if (ast.else_result) for_each_column_ref(*ast.else_result, visit);
}

Status for_each_subquery(const AstExpr& ast, const std::function<Status(const AstExpr&)>& visit) {
  for (const AstExprPtr& child : ast.children) {
    if (child) FRESHET_RETURN_IF_ERROR(for_each_subquery(*child, visit));
  }
  if (ast.case_operand) FRESHET_RETURN_IF_ERROR(for_each_subquery(*ast.case_operand, visit));
  if (ast.else_result) FRESHET_RETURN_IF_ERROR(for_each_subquery(*ast.else_result, visit));
  if (is_subquery_node(ast)) return visit(ast);
  return Status::OK();
}

bool has_subquery(const Select& select) {
  for (const SelectItem& item : select.items) {
    if (item.expr && contains_subquery(*item.expr)) return true;
  }
  return select.having && contains_subquery(*select.having);
}

Status check_subquery_places(const Select& select, bool windowed) {
  for (const AstExprPtr& key : select.group_by) {
    if (contains_subquery(*key)) return sql_error(key->position, "subqueries in GROUP BY are not supported");
  }
  if (!windowed) return Status::OK();
  const char* advice =
      " of a query with window functions are not supported; "
      "compute the window functions in a FROM subquery and use the subquery outside it";
  for (const SelectItem& item : select.items) {
    if (item.expr && contains_subquery(*item.expr)) {
      return sql_error(item.position, std::string("subqueries in the select list") + advice);
    }
  }
  if (select.having && contains_subquery(*select.having)) {
    return sql_error(select.having->position, std::string("subqueries in HAVING") + advice);
  }
  return Status::OK();
}

ExpressionBinder::Interceptor SubqueryValues::interceptor() const {
  return [this](const AstExpr& ast) -> Result<ExprPtr> {
    auto found = values.find(&ast);
    if (found == values.end()) return fallback ? fallback(ast) : ExprPtr();
    return clone_expr(*found->second);
  };
}

ExprPtr bool_literal(bool value) { return literal_expr(Value::boolean(value), SqlType::boolean(false)); }

ExprPtr null_bool() { return null_literal(SqlType::boolean()); }

ExprPtr is_null_expr(ExprPtr operand, bool negated) {
  std::vector<ExprPtr> children;
  children.push_back(std::move(operand));
  ExprPtr test = make_expr(ExprKind::kIsNull, SqlType::boolean(false), std::move(children));
  test->negated = negated;
  return test;
}

ExprPtr not_expr(ExprPtr operand) {
  SqlType type = operand->type;
  std::vector<ExprPtr> children;
  children.push_back(std::move(operand));
  return make_expr(ExprKind::kNot, type, std::move(children));
}

ExprPtr or_expr(ExprPtr left, ExprPtr right) {
  bool nullable = left->type.nullable || right->type.nullable;
  std::vector<ExprPtr> children;
  children.push_back(std::move(left));
  children.push_back(std::move(right));
  return make_expr(ExprKind::kOr, SqlType::boolean(nullable), std::move(children));
}

ExprPtr compare_expr(AstOperator op, ExprPtr left, ExprPtr right) {
  bool nullable = left->type.nullable || right->type.nullable;
  std::vector<ExprPtr> children;
  children.push_back(std::move(left));
  children.push_back(std::move(right));
  ExprPtr compare = make_expr(ExprKind::kCompare, SqlType::boolean(nullable), std::move(children));
  compare->op = op;
  return compare;
}

ExprPtr case_expr(std::vector<std::pair<ExprPtr, ExprPtr>> whens, ExprPtr otherwise, SqlType type) {
  std::vector<ExprPtr> children;
  for (auto& [when, then] : whens) {
    children.push_back(std::move(when));
    children.push_back(cast_to(std::move(then), type));
  }
  bool has_else = static_cast<bool>(otherwise);
  if (has_else) children.push_back(cast_to(std::move(otherwise), type));
  ExprPtr expr = make_expr(ExprKind::kCase, type, std::move(children));
  expr->has_else = has_else;
  return expr;
}

ExprPtr zero_of(const SqlType& type) {
  SqlType not_null = type.with_nullable(false);
  switch (type.id) {
    case TypeId::kBoolean:
      return literal_expr(Value::boolean(false), not_null);
    case TypeId::kVarchar:
      return literal_expr(Value::varchar(""), not_null);
    case TypeId::kReal:
    case TypeId::kDouble:
      return literal_expr(Value::floating(type.id, 0), not_null);
    case TypeId::kDecimal:
      return literal_expr(Value::decimal(0, type.scale), not_null);
    default:
      return literal_expr(Value::integer(type.id, 0), not_null);
  }
}

ExprPtr or_zero(ExprPtr x) {
  SqlType type = x->type.with_nullable(false);
  std::vector<ExprPtr> parts;
  parts.push_back(std::move(x));
  parts.push_back(zero_of(type));
  return make_expr(ExprKind::kCoalesce, type, std::move(parts));
}

ExprPtr substitute_columns(const Expr& expr, const std::function<ExprPtr(size_t, const SqlType&)>& replace) {
  if (expr.kind == ExprKind::kColumn) return replace(expr.column, expr.type);
  ExprPtr copy = clone_expr(expr);
  for (size_t i = 0; i < copy->children.size(); ++i) copy->children[i] = substitute_columns(*expr.children[i], replace);
  return copy;
}

}  // namespace freshet::sql
