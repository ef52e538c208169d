// FunctionCall: the bound arguments of one scalar function call, with the
// arity and type checks (and implicit casts) the function binders share
// (bind_string_functions.cpp, bind_math_functions.cpp).
#pragma once

#include <string>
#include <vector>

#include "expression_binder.h"

namespace freshet::sql {

class FunctionCall {
 public:
  FunctionCall(const AstExpr& ast, std::vector<ExprPtr>& args) : ast_(ast), args_(args) {}

  //! "name() takes 2 arguments, not 3"; `high` kAny for no upper bound.
  static constexpr size_t kAny = SIZE_MAX;
  Status arity(size_t low, size_t high) const;
  //! "name() needs <what> as argument i+1, not <type>" unless `ok`.
  Status need(size_t i, bool ok, const char* what) const;
  //! Argument i must be VARCHAR (a NULL literal becomes one).
  Status string_argument(size_t i);
  //! Argument i of any type that casts to VARCHAR, cast to it (CONCAT's).
  Status text_argument(size_t i);
  //! Argument i must be an integer; it becomes BIGINT.
  Status integer_argument(size_t i);
  //! Argument i must be numeric; it becomes DOUBLE.
  Status double_argument(size_t i);
  //! Whether any argument may be NULL.
  bool any_nullable() const;
  //! The call node, taking the arguments.
  ExprPtr make(ScalarFunction function, SqlType type);

  std::vector<ExprPtr>& args() { return args_; }
  const AstExpr& ast() const { return ast_; }

 private:
  const AstExpr& ast_;
  std::vector<ExprPtr>& args_;
};

}  // namespace freshet::sql
