#include "bind_function_call.h"

#include "type_rules.h"

namespace freshet::sql {

Status FunctionCall::arity(size_t low, size_t high) const {
  size_t count = args_.size();
  if (count >= low && count <= high) return Status::OK();
  std::string expected = high == kAny      ? "at least " + std::to_string(low)
                         : low == high     ? std::to_string(low)
                         : high == low + 1 ? std::to_string(low) + " or " + std::to_string(high)
                                           : std::to_string(low) + " to " + std::to_string(high);
  const char* noun = expected == "1" ? " argument" : " arguments";
  return sql_error(ast_.position, ast_.name + "() takes " + expected + noun + ", not " + std::to_string(count));
}

Status FunctionCall::need(size_t i, bool ok, const char* what) const {
  if (ok) return Status::OK();
  return sql_error(ast_.children[i]->position, ast_.name + "() needs " + what + " as argument " +
                                                   std::to_string(i + 1) + ", not " +
                                                   args_[i]->type.with_nullable(true).to_string());
}

Status FunctionCall::string_argument(size_t i) {
  if (is_null_literal(*args_[i])) args_[i] = null_literal(SqlType::varchar());
  return need(i, args_[i]->type.id == TypeId::kVarchar, "a VARCHAR");
}

Status FunctionCall::text_argument(size_t i) {
  if (is_null_literal(*args_[i])) args_[i] = null_literal(SqlType::varchar());
  FRESHET_RETURN_IF_ERROR(need(i, can_cast(args_[i]->type, SqlType::varchar()), "a value castable to VARCHAR"));
  args_[i] = cast_to(std::move(args_[i]), SqlType::varchar());
  return Status::OK();
}

Status FunctionCall::integer_argument(size_t i) {
  if (is_null_literal(*args_[i])) args_[i] = null_literal(SqlType::bigint());
  FRESHET_RETURN_IF_ERROR(need(i, args_[i]->type.is_integer(), "an integer"));
  args_[i] = cast_to(std::move(args_[i]), SqlType::bigint());
  return Status::OK();
}

Status FunctionCall::double_argument(size_t i) {
  if (is_null_literal(*args_[i])) args_[i] = null_literal(SqlType::double_precision());
  FRESHET_RETURN_IF_ERROR(need(i, args_[i]->type.is_numeric(), "a number"));
  args_[i] = cast_to(std::move(args_[i]), SqlType::double_precision());
  return Status::OK();
}

bool FunctionCall::any_nullable() const {
  for (const ExprPtr& arg : args_) {
    if (arg->type.nullable) return true;
  }
  return false;
}

ExprPtr FunctionCall::make(ScalarFunction function, SqlType type) {
  return function_expr(function, type, std::move(args_));
}

}  // namespace freshet::sql
