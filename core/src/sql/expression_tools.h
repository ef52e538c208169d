// Small rewrites of bound expressions the binder and planner share.
#pragma once

#include <string>
#include <vector>

#include "freshet/sql/expression.h"

namespace freshet::sql {

//! An operator as SQL writes it ("+", "<>", "||"), for plans and messages.
const char* operator_text(AstOperator op);

//! The span of input columns an expression reads ([min, max], empty if none).
struct ColumnRange {
  size_t min = SIZE_MAX, max = 0;
  bool empty() const { return min == SIZE_MAX; }
  //! Whether every column read lies in [begin, end) (and at least one is read).
  bool within(size_t begin, size_t end) const { return !empty() && min >= begin && max < end; }
};
ColumnRange referenced_columns(const Expr& expr);

//! Subtracts `offset` from every column reference (to re-base an expression
//! on the right side of a join).
void shift_columns(Expr& expr, size_t offset);

//! Whether the expression reads NOW() (ExprKind::kNow) anywhere.
bool contains_now(const Expr& expr);
//! Replaces every NOW() with a reference to column `column` (the clock's
//! column appended to the row).
void replace_now(Expr& expr, size_t column);

//! The conjuncts of an AND tree (a single expression otherwise).
std::vector<ExprPtr> split_conjuncts(ExprPtr expr);
//! AND of the expressions; null when there are none.
ExprPtr conjoin(std::vector<ExprPtr> conjuncts);

//! The names of a schema's columns, by position (for Expr::to_string).
ColumnNames column_names(const Schema& schema);
//! "(a, b * 2 AS c)": explain's words for a map computing `expressions`
//! over `input`, each named as `output` names it where that differs.
std::string describe_expressions(const std::vector<ExprPtr>& expressions, const Schema& input, const Schema& output);

}  // namespace freshet::sql
