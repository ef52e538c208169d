// ExpressionBinder: resolves the names of an expression's syntax tree
// against a scope and types it, inserting the implicit casts SQL's rules
// call for (numeric widening, string literals compared with dates).
#pragma once

#include <functional>
#include <string>

#include "freshet/sql/expression.h"
#include "scope.h"

namespace freshet::sql {

class ExpressionBinder {
 public:
  //! Sees each node before it is bound; returns a bound expression to use
  //! instead, or null to bind the node normally. Aggregate queries use it to
  //! map aggregate calls and GROUP BY expressions to the aggregate's output.
  using Interceptor = std::function<Result<ExprPtr>(const AstExpr&)>;

  explicit ExpressionBinder(const Scope& scope, Interceptor interceptor = nullptr)
      : scope_(scope), interceptor_(std::move(interceptor)) {}

  Result<ExprPtr> bind(const AstExpr& ast);
  //! Binds a condition (WHERE, ON, HAVING, CASE WHEN): it must be BOOLEAN.
  Result<ExprPtr> bind_condition(const AstExpr& ast, const char* clause);

 private:
  using NodeBinder = Result<ExprPtr> (ExpressionBinder::*)(const AstExpr&);
  //! The member that binds a node of `kind` (bind_node.cpp says why a pointer).
  static NodeBinder binder_for(AstExprKind kind);
  Result<ExprPtr> bind_node(const AstExpr& ast);
  Result<ExprPtr> bind_literal(const AstExpr& ast);
  Result<ExprPtr> bind_column_ref(const AstExpr& ast);
  Result<ExprPtr> bind_unary(const AstExpr& ast);
  Result<ExprPtr> bind_is_null(const AstExpr& ast);
  Result<ExprPtr> bind_is_distinct(const AstExpr& ast);
  Result<ExprPtr> bind_is_truth(const AstExpr& ast);
  Result<ExprPtr> bind_between(const AstExpr& ast);
  Result<ExprPtr> bind_like(const AstExpr& ast);
  Result<ExprPtr> bind_cast(const AstExpr& ast);
  Result<ExprPtr> bind_subquery_here(const AstExpr& ast);
  Result<ExprPtr> bind_unsupported(const AstExpr& ast);
  Result<ExprPtr> bind_binary(const AstExpr& ast);
  Result<ExprPtr> bind_comparison(AstOperator op, ExprPtr left, ExprPtr right, SourcePosition position);
  Result<ExprPtr> bind_in_list(const AstExpr& ast);
  Result<ExprPtr> bind_case(const AstExpr& ast);
  Result<ExprPtr> bind_function(const AstExpr& ast);
  // Scalar functions (bind_string_functions.cpp, bind_math_functions.cpp):
  // each returns null when `ast` names none of its functions.
  Result<ExprPtr> bind_string_function(const AstExpr& ast, std::vector<ExprPtr>& args);
  Result<ExprPtr> bind_math_function(const AstExpr& ast, std::vector<ExprPtr>& args);
  Result<ExprPtr> bind_comparison_function(const AstExpr& ast, std::vector<ExprPtr>& args);
  // Time functions (bind_time_functions.cpp).
  Result<ExprPtr> bind_extract(const AstExpr& ast);
  Result<ExprPtr> bind_time_function(const AstExpr& ast);
  Result<ExprPtr> bind_truncate(const AstExpr& ast);
  Result<ExprPtr> bind_floor_ceil(const AstExpr& ast);
  Result<ExprPtr> bind_timestamp_add(const AstExpr& ast);
  Result<ExprPtr> bind_timestamp_diff(const AstExpr& ast);
  Result<ExprPtr> bind_make(const AstExpr& ast);
  Result<ExprPtr> bind_date_add(const AstExpr& ast);
  Result<std::vector<ExprPtr>> bind_children(const AstExpr& ast);
  // bind_temporal.cpp
  Result<ExprPtr> bind_temporal_arithmetic(const AstExpr& ast, ExprPtr left, ExprPtr right);
  Result<ExprPtr> bind_datetime_difference(const AstExpr& ast);

  const Scope& scope_;
  Interceptor interceptor_;
  size_t depth_ = 0;  // nesting of bind() calls, bounded so the stack is too
};

//! How deeply expressions may nest: the binder and evaluator recurse on them.
inline constexpr size_t kMaxExpressionDepth = 1000;

//! `expr` as `type`: wrapped in a CAST unless it already has that type (a
//! NULL literal just becomes a NULL of that type).
ExprPtr cast_to(ExprPtr expr, const SqlType& type);
//! Whether a bound expression is an untyped NULL (Expr::untyped): a bare
//! NULL, or a CASE, COALESCE, NULLIF, GREATEST or LEAST of only bare NULLs.
//! Its type is the context's; `CAST(NULL AS T)` is typed and does not count.
bool is_null_literal(const Expr& expr);
//! An untyped NULL whose placeholder type is `placeholder` (the default
//! where nothing decides: INTEGER for a column of only NULLs).
ExprPtr untyped_null(SqlType placeholder = SqlType::boolean());
//! COUNT, SUM, AVG, MIN, MAX, STDDEV, ... (aggregate_functions.h).
bool is_aggregate_function(const std::string& name);
//! Whether an aggregate call appears anywhere in the tree (window calls such as SUM(x) OVER (...) do not count).
bool contains_aggregate(const AstExpr& ast);
//! Whether a window function call (f(...) OVER ...) appears anywhere in the tree.
bool contains_window(const AstExpr& ast);

}  // namespace freshet::sql
