// Small pieces the subquery binder (bind_subquery.cpp, bind_correlated.cpp)
// builds its plans from: copies of syntax trees, bound expressions and plans
// (a subquery's rows feed more than one join), and bound-expression builders
// for the three-valued tests IN, ANY and ALL compile to.
#pragma once

#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "expression_binder.h"
#include "logical_plan.h"

namespace freshet::sql {

//! A copy of a syntax tree. A subquery is shared, not copied. Window calls
//! (OVER) are not copied: callers reject them first.
AstExprPtr clone_ast(const AstExpr& ast);
//! A deep copy of a logical plan (the same rows, planned again).
PlanPtr clone_plan(const LogicalPlan& plan);

//! The conjuncts of an AND tree of syntax (the expression itself otherwise).
std::vector<const AstExpr*> split_ast_conjuncts(const AstExpr& ast);
//! Whether a subquery (scalar, EXISTS, IN, ANY/ALL) appears in the tree.
bool contains_subquery(const AstExpr& ast);
//! Calls `visit` on every column reference of the tree, not looking inside subqueries.
void for_each_column_ref(const AstExpr& ast, const std::function<void(const AstExpr&)>& visit);
//! Calls `visit` on every subquery node of the tree, children first, not
//! looking inside subqueries; stops at the first error.
Status for_each_subquery(const AstExpr& ast, const std::function<Status(const AstExpr&)>& visit);

//! Rejects subqueries where they are not supported: in GROUP BY, and in the
//! select list or HAVING of a query with window functions (`windowed`).
Status check_subquery_places(const Select& select, bool windowed);
//! Whether the select list or HAVING holds a subquery.
bool has_subquery(const Select& select);

//! The expression each subquery node of a tree stands for, once its facts
//! are joined to the input (columns of the extended input).
struct SubqueryValues {
  std::map<const AstExpr*, ExprPtr> values;
  //! Consulted for every other node when set (an aggregate query's mapping of calls and keys).
  ExpressionBinder::Interceptor fallback;
  //! An ExpressionBinder interceptor that binds a recorded node to (a copy of) its value.
  ExpressionBinder::Interceptor interceptor() const;
};

// Bound-expression builders (types must already agree).
ExprPtr bool_literal(bool value);
ExprPtr null_bool();
ExprPtr is_null_expr(ExprPtr operand, bool negated = false);
ExprPtr not_expr(ExprPtr operand);
ExprPtr or_expr(ExprPtr left, ExprPtr right);
ExprPtr compare_expr(AstOperator op, ExprPtr left, ExprPtr right);
//! CASE WHEN w1 THEN t1 ... [ELSE otherwise] END of type `type`.
ExprPtr case_expr(std::vector<std::pair<ExprPtr, ExprPtr>> whens, ExprPtr otherwise, SqlType type);
//! A non-NULL value of the type (0, '', FALSE), for NULL-safe join keys.
ExprPtr zero_of(const SqlType& type);
//! COALESCE(x, zero_of(x's type)), NOT NULL: with `x IS NULL`, a NULL-safe key part.
ExprPtr or_zero(ExprPtr x);
//! Replaces each column reference by `replace(column, type)`.
ExprPtr substitute_columns(const Expr& expr, const std::function<ExprPtr(size_t, const SqlType&)>& replace);

}  // namespace freshet::sql
