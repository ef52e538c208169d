// ExpressionBinder::bind_string_function: Feldera's string functions
// (docs.feldera.com/docs/sql/string.md) with their argument and result
// types; the names it binds are listed in function_catalog.cpp. All are
// NULL on a NULL argument except CONCAT_WS (NULL only for a NULL separator).
// A constant regular expression compiles here, once: an invalid one is a
// compile error at the pattern.
#include "bind_function_call.h"
#include "freshet/common/regex.h"

namespace freshet::sql {
namespace {

// TRIM's side (AstExpr::text of the "trim" call) or LTRIM / RTRIM.
ScalarFunction trim_function(const AstExpr& ast) {
  if (ast.name == "ltrim" || ast.text == "leading") return ScalarFunction::kTrimLeading;
  if (ast.name == "rtrim" || ast.text == "trailing") return ScalarFunction::kTrimTrailing;
  return ScalarFunction::kTrimBoth;
}

// Compiles argument 1 when it is a constant; NULL literals and columns are left for run time.
Status compile_constant_pattern(const AstExpr& ast, Expr& call) {
  const Expr& pattern = *call.children[1];
  if (pattern.kind != ExprKind::kLiteral || pattern.literal.null) return Status::OK();
  Result<std::shared_ptr<const Regex>> regex = Regex::compile(pattern.literal_text);
  if (!regex.ok()) return sql_error(ast.children[1]->position, regex.status().message());
  call.regex = std::move(*regex);
  return Status::OK();
}

}  // namespace

Result<ExprPtr> ExpressionBinder::bind_string_function(const AstExpr& ast, std::vector<ExprPtr>& args) {
  const std::string& name = ast.name;
  FunctionCall call(ast, args);
  SqlType varchar = SqlType::varchar(false);
  if (name == "concat" || name == "concat_ws") {
    bool ws = name == "concat_ws";
    FRESHET_RETURN_IF_ERROR(call.arity(ws ? 2 : 1, FunctionCall::kAny));
    for (size_t i = 0; i < args.size(); ++i) FRESHET_RETURN_IF_ERROR(call.text_argument(i));
    // CONCAT is NULL on any NULL (MySQL's, as Feldera); CONCAT_WS only on a NULL separator.
    bool nullable = ws ? args[0]->type.nullable : call.any_nullable();
    return call.make(ws ? ScalarFunction::kConcatWs : ScalarFunction::kConcatAll, varchar.with_nullable(nullable));
  }
  if (name == "trim" || name == "ltrim" || name == "rtrim") {
    if (name != "trim") {
      // LTRIM(s) / RTRIM(s) (Calcite's, which Feldera accepts): spaces.
      FRESHET_RETURN_IF_ERROR(call.arity(1, 1));
      FRESHET_RETURN_IF_ERROR(call.string_argument(0));
      args.insert(args.begin(), literal_expr(Value::varchar(" "), varchar));
    } else {
      for (size_t i = 0; i < 2; ++i) FRESHET_RETURN_IF_ERROR(call.string_argument(i));
    }
    return call.make(trim_function(ast), varchar.with_nullable(call.any_nullable()));
  }
  struct Signature {
    const char* name;
    ScalarFunction function;
    const char* arguments;  // per argument: 's' VARCHAR, 'i' integer (as BIGINT); optional ones after '['
    TypeId result;
  };
  static const Signature kSignatures[] = {
      {"position", ScalarFunction::kPosition, "ss", TypeId::kInt},
      {"replace", ScalarFunction::kReplace, "sss", TypeId::kVarchar},
      {"left", ScalarFunction::kLeft, "si", TypeId::kVarchar},
      {"right", ScalarFunction::kRight, "si", TypeId::kVarchar},
      {"repeat", ScalarFunction::kRepeat, "si", TypeId::kVarchar},
      {"reverse", ScalarFunction::kReverse, "s", TypeId::kVarchar},
      {"initcap", ScalarFunction::kInitcap, "s", TypeId::kVarchar},
      {"split_part", ScalarFunction::kSplitPart, "ssi", TypeId::kVarchar},
      {"md5", ScalarFunction::kMd5, "s", TypeId::kVarchar},
      {"rlike", ScalarFunction::kRlike, "ss", TypeId::kBoolean},
      {"regexp_replace", ScalarFunction::kRegexpReplace, "ss[s", TypeId::kVarchar},
  };
  const Signature* signature = nullptr;
  for (const Signature& candidate : kSignatures) {
    if (name == candidate.name) signature = &candidate;
  }
  if (!signature) return ExprPtr();
  std::string kinds = signature->arguments;
  size_t optional = kinds.find('[');
  size_t required = optional == std::string::npos ? kinds.size() : optional;
  if (optional != std::string::npos) kinds.erase(optional, 1);
  FRESHET_RETURN_IF_ERROR(call.arity(required, kinds.size()));
  for (size_t i = 0; i < args.size(); ++i) {
    FRESHET_RETURN_IF_ERROR(kinds[i] == 's' ? call.string_argument(i) : call.integer_argument(i));
  }
  SqlType type = signature->result == TypeId::kInt       ? SqlType::integer(false)
                 : signature->result == TypeId::kBoolean ? SqlType::boolean(false)
                                                         : varchar;
  ExprPtr result = call.make(signature->function, type.with_nullable(call.any_nullable()));
  if (signature->function == ScalarFunction::kRlike || signature->function == ScalarFunction::kRegexpReplace) {
    FRESHET_RETURN_IF_ERROR(compile_constant_pattern(ast, *result));
  }
  if (ast.negated) {  // s NOT RLIKE pattern
    SqlType boolean = result->type;
    std::vector<ExprPtr> operand;
    operand.push_back(std::move(result));
    return make_expr(ExprKind::kNot, boolean, std::move(operand));
  }
  return result;
}

}  // namespace freshet::sql
