// ExpressionBinder: the dispatch over syntax nodes and the scalar functions
// (which binder binds a name is the function catalog's, function_catalog.h).
#include <algorithm>

#include "evaluate_internal.h"
#include "expression_binder.h"
#include "freshet/common/ascii.h"
#include "freshet/common/unicode.h"
#include "function_catalog.h"
#include "subquery_tools.h"
#include "type_rules.h"

namespace freshet::sql {
namespace {

std::string describe(const SqlType& type) { return type.with_nullable(true).to_string(); }

ExprPtr unary(ExprKind kind, SqlType type, ExprPtr child) {
  std::vector<ExprPtr> children;
  children.push_back(std::move(child));
  return make_expr(kind, type, std::move(children));
}

// A catalog entry whose binder does not know the name: a bug (sql_reference_test.cpp finds it).
Status catalog_mismatch(const std::string& name) {
  return Status(ErrorCode::kInternal, "the function catalog names a binder that does not know " + name + "()");
}

}  // namespace

// The binder of each kind of node is called through a pointer, not from the
// switch: called directly from one place, Binaryen (the wasm optimizer)
// inlines every one of them, and what they inline, into bind_node, which grew
// to a 74 KB function. V8's Liftoff charges each return its offset in the
// function against the function's tier-up budget, so bind_node was compiled
// by TurboFan (~0.6 s of a core) during every first Pipeline.create and the
// load after it, for code that runs only while a program compiles. Through
// a pointer each binder stays its own function, and only those that run
// much get tiered up.
ExpressionBinder::NodeBinder ExpressionBinder::binder_for(AstExprKind kind) {
  switch (kind) {
    case AstExprKind::kLiteral: return &ExpressionBinder::bind_literal;
    case AstExprKind::kColumnRef: return &ExpressionBinder::bind_column_ref;
    case AstExprKind::kUnary: return &ExpressionBinder::bind_unary;
    case AstExprKind::kBinary: return &ExpressionBinder::bind_binary;
    case AstExprKind::kDatetimeDifference: return &ExpressionBinder::bind_datetime_difference;
    case AstExprKind::kIsNull: return &ExpressionBinder::bind_is_null;
    case AstExprKind::kIsDistinct:
      return &ExpressionBinder::bind_is_distinct;
    case AstExprKind::kIsTruth:
      return &ExpressionBinder::bind_is_truth;
    case AstExprKind::kBetween: return &ExpressionBinder::bind_between;
    case AstExprKind::kInList: return &ExpressionBinder::bind_in_list;
    case AstExprKind::kLike: return &ExpressionBinder::bind_like;
    case AstExprKind::kCase: return &ExpressionBinder::bind_case;
    case AstExprKind::kCast: return &ExpressionBinder::bind_cast;
    case AstExprKind::kFunction: return &ExpressionBinder::bind_function;
    case AstExprKind::kExtract: return &ExpressionBinder::bind_extract;
    case AstExprKind::kSubquery:
    case AstExprKind::kExists:
    case AstExprKind::kInSubquery:
    case AstExprKind::kQuantified: return &ExpressionBinder::bind_subquery_here;
  }
  return &ExpressionBinder::bind_unsupported;
}

Result<ExprPtr> ExpressionBinder::bind_node(const AstExpr& ast) { return (this->*binder_for(ast.kind))(ast); }

Result<ExprPtr> ExpressionBinder::bind_column_ref(const AstExpr& ast) {
  Result<size_t> column = scope_.resolve(ast.names, ast.position);
  if (!column.ok()) return column.status();
  if (scope_.columns[*column].null_only) return untyped_null();
  return column_expr(*column, scope_.columns[*column].type);
}

Result<ExprPtr> ExpressionBinder::bind_unary(const AstExpr& ast) {
  Result<ExprPtr> operand = bind(*ast.children[0]);
  if (!operand.ok()) return operand.status();
  ExprPtr child = std::move(*operand);
  if (ast.op == AstOperator::kNot) {
    if (is_null_literal(*child)) child = null_literal(SqlType::boolean());
    if (child->type.id != TypeId::kBoolean) {
      return sql_error(ast.position, "NOT needs a BOOLEAN operand, not " + describe(child->type));
    }
    SqlType type = child->type;
    return unary(ExprKind::kNot, type, std::move(child));
  }
  if (is_null_literal(*child)) child = null_literal(SqlType::integer());
  if (!child->type.is_numeric() && !child->type.is_interval()) {
    return sql_error(ast.position, "unary minus needs a numeric or interval operand, not " + describe(child->type));
  }
  SqlType type = child->type;
  return unary(ExprKind::kNegate, type, std::move(child));
}

Result<ExprPtr> ExpressionBinder::bind_is_null(const AstExpr& ast) {
  Result<ExprPtr> operand = bind(*ast.children[0]);
  if (!operand.ok()) return operand.status();
  ExprPtr is_null = unary(ExprKind::kIsNull, SqlType::boolean(false), std::move(*operand));
  is_null->negated = ast.negated;
  return is_null;
}

// a IS NOT DISTINCT FROM b: (a IS NULL) = (b IS NULL) AND COALESCE(a, zero) =
// COALESCE(b, zero), never NULL (IS DISTINCT FROM is its negation). Two
// equalities rather than a CASE so that in a join's ON they are its keys (a
// NULL-safe equi-join, as a correlated subquery's keys are: push_key), not a
// condition tried on every pair. a and b are compared as `=` compares them
// (the same types, the same errors). Against a NULL literal: a IS NULL.
Result<ExprPtr> ExpressionBinder::bind_is_distinct(const AstExpr& ast) {
  Result<ExprPtr> left = bind(*ast.children[0]), right = bind(*ast.children[1]);
  if (!left.ok()) return left.status();
  if (!right.ok()) return right.status();
  ExprPtr a = std::move(*left), b = std::move(*right);
  ExprPtr same;
  if (is_null_literal(*a) || is_null_literal(*b)) {
    same = is_null_expr(is_null_literal(*a) ? std::move(b) : std::move(a));
  } else {
    Result<ExprPtr> same_nulls =
        bind_comparison(AstOperator::kEqual, is_null_expr(clone_expr(*a)), is_null_expr(clone_expr(*b)), ast.position);
    if (!same_nulls.ok()) return same_nulls.status();
    Result<ExprPtr> same_values =
        bind_comparison(AstOperator::kEqual, or_zero(std::move(a)), or_zero(std::move(b)), ast.position);
    if (!same_values.ok()) return same_values.status();
    std::vector<ExprPtr> both;
    both.push_back(std::move(*same_nulls));
    both.push_back(std::move(*same_values));
    same = make_expr(ExprKind::kAnd, SqlType::boolean(false), std::move(both));
  }
  return ast.negated ? std::move(same) : not_expr(std::move(same));
}

// x IS TRUE: CASE WHEN x IS NULL THEN FALSE ELSE x END; IS FALSE the same with
// NOT x; IS UNKNOWN is IS NULL. Never NULL; IS NOT ... negates.
Result<ExprPtr> ExpressionBinder::bind_is_truth(const AstExpr& ast) {
  Result<ExprPtr> operand = bind(*ast.children[0]);
  if (!operand.ok()) return operand.status();
  ExprPtr x = std::move(*operand);
  const std::string test = "IS " + std::string(ast.negated ? "NOT " : "") + ascii_upper(ast.text);
  if (is_null_literal(*x)) x = null_literal(SqlType::boolean());
  if (x->type.id != TypeId::kBoolean) {
    return sql_error(ast.position, test + " needs a BOOLEAN operand, not " + describe(x->type));
  }
  ExprPtr result;
  if (ast.text == "unknown") {
    result = is_null_expr(std::move(x));
  } else {
    ExprPtr value = ast.text == "true" ? std::move(x) : not_expr(std::move(x));
    std::vector<std::pair<ExprPtr, ExprPtr>> whens;
    whens.emplace_back(is_null_expr(clone_expr(*value)), bool_literal(false));
    result = case_expr(std::move(whens), std::move(value), SqlType::boolean(false));
  }
  return ast.negated ? not_expr(std::move(result)) : std::move(result);
}

// x BETWEEN a AND b is x >= a AND x <= b (x is evaluated twice; it has no side effects).
Result<ExprPtr> ExpressionBinder::bind_between(const AstExpr& ast) {
  Result<ExprPtr> low_value = bind(*ast.children[0]), low = bind(*ast.children[1]);
  Result<ExprPtr> high_value = bind(*ast.children[0]), high = bind(*ast.children[2]);
  for (const Result<ExprPtr>* part : {&low_value, &low, &high_value, &high}) {
    if (!part->ok()) return part->status();
  }
  Result<ExprPtr> above =
      bind_comparison(AstOperator::kGreaterEqual, std::move(*low_value), std::move(*low), ast.position);
  if (!above.ok()) return above.status();
  Result<ExprPtr> below =
      bind_comparison(AstOperator::kLessEqual, std::move(*high_value), std::move(*high), ast.position);
  if (!below.ok()) return below.status();
  bool nullable = (*above)->type.nullable || (*below)->type.nullable;
  std::vector<ExprPtr> both;
  both.push_back(std::move(*above));
  both.push_back(std::move(*below));
  ExprPtr between = make_expr(ExprKind::kAnd, SqlType::boolean(nullable), std::move(both));
  if (!ast.negated) return between;
  // Read the type before `between` moves: argument evaluation order is unspecified.
  SqlType type = between->type;
  return unary(ExprKind::kNot, type, std::move(between));
}

// x [NOT] LIKE p [ESCAPE e]: children x, p and, with ESCAPE, e (a constant of
// one character other than _ and %; a constant p is checked against it here,
// another when it is evaluated). x ILIKE p is LOWER(x) LIKE LOWER(p).
Result<ExprPtr> ExpressionBinder::bind_like(const AstExpr& ast) {
  const bool ilike = ast.name == "ilike";
  const std::string what = ilike ? "ILIKE" : "LIKE";
  Result<std::vector<ExprPtr>> children = bind_children(ast);
  if (!children.ok()) return children.status();
  if (children->size() == 3) {
    const Expr& escape = *(*children)[2];
    const std::string_view text = escape.literal_text;
    const bool one_character = !text.empty() && std::all_of(text.begin() + 1, text.end(), [](char byte) {
      return (static_cast<unsigned char>(byte) & 0xC0) == 0x80;  // continuation bytes of the first character
    });
    if (escape.kind != ExprKind::kLiteral || escape.type.id != TypeId::kVarchar || escape.literal.null ||
        !one_character || text == "_" || text == "%") {
      return sql_error(ast.children[2]->position,
                       what + " ... ESCAPE needs a string constant of one character other than _ and %");
    }
    const Expr& pattern = *(*children)[1];
    if (pattern.kind == ExprKind::kLiteral && pattern.type.id == TypeId::kVarchar && !pattern.literal.null &&
        internal::like_matches("", pattern.literal_text, text) == internal::LikeMatch::kBadEscape) {
      return sql_error(ast.children[1]->position, "invalid " + what + " pattern '" + pattern.literal_text +
                                                      "': its escape character " + std::string(text) +
                                                      " must be followed by _, % or itself");
    }
  }
  // A VARCHAR literal lower-cased, of the same type.
  auto lowered = [](const Expr& literal) {
    std::string lower;
    unicode::append_lower(literal.literal_text, lower);
    return literal_expr(Value::varchar(lower), literal.type);
  };
  if (ilike && children->size() == 3) {  // the pattern is lower-cased: so is its escape character
    (*children)[2] = lowered(*(*children)[2]);
  }
  bool nullable = false;
  for (size_t i = 0; i < 2; ++i) {
    ExprPtr& child = (*children)[i];
    if (is_null_literal(*child)) child = null_literal(SqlType::varchar());
    if (child->type.id != TypeId::kVarchar) {
      return sql_error(ast.position, what + " needs VARCHAR operands, not " + describe(child->type));
    }
    nullable = nullable || child->type.nullable;
    if (ilike && child->kind == ExprKind::kLiteral && !child->literal.null) {  // a constant pattern, lower-cased once
      child = lowered(*child);
    } else if (ilike) {
      SqlType type = child->type;
      std::vector<ExprPtr> argument;
      argument.push_back(std::move(child));
      child = function_expr(ScalarFunction::kLower, type, std::move(argument));
    }
  }
  ExprPtr like = make_expr(ExprKind::kLike, SqlType::boolean(nullable), std::move(*children));
  like->negated = ast.negated;
  return like;
}

Result<ExprPtr> ExpressionBinder::bind_cast(const AstExpr& ast) {
  Result<ExprPtr> operand = bind(*ast.children[0]);
  if (!operand.ok()) return operand.status();
  if (!is_null_literal(**operand) && !can_cast((*operand)->type, ast.cast_type)) {
    return sql_error(ast.position, "cannot cast " + describe((*operand)->type) + " to " + describe(ast.cast_type));
  }
  ExprPtr child = std::move(*operand);
  if (is_null_literal(*child)) return null_literal(ast.cast_type.with_nullable(true));  // typed from here on
  // A CAST that cannot convert a value fails the step; it never makes NULLs.
  SqlType type = ast.cast_type.with_nullable(child->type.nullable);
  return unary(ExprKind::kCast, type, std::move(child));
}

// Subqueries are joined in before binding (bind_subquery.cpp), where they are supported.
Result<ExprPtr> ExpressionBinder::bind_subquery_here(const AstExpr& ast) {
  return sql_error(ast.position, "a subquery is not supported here (only in WHERE and in the select list)");
}

Result<ExprPtr> ExpressionBinder::bind_unsupported(const AstExpr& ast) {
  return sql_error(ast.position, "unsupported expression");
}

Result<ExprPtr> ExpressionBinder::bind_function(const AstExpr& ast) {
  const std::string& name = ast.name;
  if (ast.over) return sql_error(ast.position, "window function " + name + "() is not allowed here");
  // The catalog decides what the name is and which binder binds it.
  const FunctionEntry* entry = find_function(name);
  if (entry && entry->kind == SqlFunctionKind::kWindow) {
    return sql_error(ast.position, name + "() needs an OVER clause");
  }
  if (is_aggregate_function(name)) {
    return sql_error(ast.position, "aggregate " + name + "() is not allowed here");
  }
  if (ast.filter)
    return sql_error(ast.position, "FILTER (WHERE ...) applies only to aggregate functions, not " + name + "()");
  if (entry && entry->kind == SqlFunctionKind::kGrouping) {
    return sql_error(ast.position, name + "() is only allowed in the select list or HAVING of a GROUP BY query");
  }
  if (entry && entry->kind == SqlFunctionKind::kUnsupported) {
    return sql_error(ast.position, unsupported_message(*entry));
  }
  if (entry && entry->binder == FunctionBinder::kTime) return bind_time_function(ast);
  Result<std::vector<ExprPtr>> bound = bind_children(ast);
  if (!bound.ok()) return bound.status();
  std::vector<ExprPtr>& args = *bound;
  auto arity = [&](size_t low, size_t high) -> Status {
    if (args.size() >= low && args.size() <= high) return Status::OK();
    std::string expected = low == high ? std::to_string(low) : std::to_string(low) + " or " + std::to_string(high);
    const char* noun = high == 1 ? " argument" : " arguments";
    return sql_error(ast.position, name + "() takes " + expected + noun + ", not " + std::to_string(args.size()));
  };
  auto need = [&](size_t i, bool ok, const char* what) -> Status {
    if (ok) return Status::OK();
    return sql_error(ast.children[i]->position,
                     name + "() needs " + what + " as argument " + std::to_string(i + 1) + ", not " +
                         describe(args[i]->type));
  };
  auto make = [&](ScalarFunction function, SqlType type) { return function_expr(function, type, std::move(args)); };
  // Unknown after the arguments, so that an error inside them is reported first.
  if (!entry) return sql_error(ast.position, "unknown function " + name + "()");
  bool nullable = false;
  for (ExprPtr& arg : args) nullable = nullable || arg->type.nullable;

  if (entry->binder == FunctionBinder::kCoalesce) {  // IFNULL(a, b) and NVL(a, b) are COALESCE(a, b)
    if (args.empty()) return sql_error(ast.position, name + "() needs at least one argument");
    if (name != "coalesce") FRESHET_RETURN_IF_ERROR(arity(2, 2));
    std::optional<SqlType> common;
    bool all_nullable = true;
    for (const ExprPtr& arg : args) {
      all_nullable = all_nullable && arg->type.nullable;
      if (is_null_literal(*arg)) continue;
      std::optional<SqlType> next = common ? common_type(*common, arg->type) : arg->type;
      if (!next) return sql_error(ast.position, "coalesce() mixes " + describe(*common) + " and " + describe(arg->type));
      common = next;
    }
    if (!common) return untyped_null();  // only bare NULLs: a bare NULL
    common->nullable = all_nullable;
    for (ExprPtr& arg : args) arg = cast_to(std::move(arg), *common);
    return make_expr(ExprKind::kCoalesce, *common, std::move(args));
  }
  if (entry->binder != FunctionBinder::kGeneral) {
    Result<ExprPtr> bound_family = ExprPtr();
    if (entry->binder == FunctionBinder::kString) bound_family = bind_string_function(ast, args);
    if (entry->binder == FunctionBinder::kMath) bound_family = bind_math_function(ast, args);
    if (entry->binder == FunctionBinder::kComparison) bound_family = bind_comparison_function(ast, args);
    if (!bound_family.ok() || *bound_family) return bound_family;
    return catalog_mismatch(name);
  }
  for (ExprPtr& arg : args) {
    if (is_null_literal(*arg)) arg = null_literal(name == "abs" || name == "round" ? SqlType::integer() : SqlType::varchar());
  }
  if (name == "abs") {
    FRESHET_RETURN_IF_ERROR(arity(1, 1));
    // ABS(interval) as Feldera: the evaluator's integer path serves both.
    FRESHET_RETURN_IF_ERROR(need(0, args[0]->type.is_numeric() || args[0]->type.is_interval(), "a number or an interval"));
    SqlType type = args[0]->type;
    return make(ScalarFunction::kAbs, type);
  }
  if (name == "round") {
    FRESHET_RETURN_IF_ERROR(arity(1, 2));
    FRESHET_RETURN_IF_ERROR(need(0, args[0]->type.is_numeric(), "a number"));
    SqlType type = args[0]->type;
    if (args.size() == 2) {
      bool literal = args[1]->kind == ExprKind::kLiteral && args[1]->type.is_integer() && !args[1]->literal.null;
      FRESHET_RETURN_IF_ERROR(need(1, literal, "an integer literal"));
      int64_t digits = args[1]->literal.integer;
      if (type.id == TypeId::kDecimal && digits >= 0 && digits < type.scale) type.scale = static_cast<uint8_t>(digits);
    } else if (type.id == TypeId::kDecimal) {
      type.scale = 0;
    }
    return make(ScalarFunction::kRound, type);
  }
  if (name == "lower" || name == "upper") {
    FRESHET_RETURN_IF_ERROR(arity(1, 1));
    FRESHET_RETURN_IF_ERROR(need(0, args[0]->type.id == TypeId::kVarchar, "a VARCHAR"));
    return make(name == "lower" ? ScalarFunction::kLower : ScalarFunction::kUpper, SqlType::varchar(nullable));
  }
  if (name == "char_length" || name == "character_length" || name == "length") {
    FRESHET_RETURN_IF_ERROR(arity(1, 1));
    FRESHET_RETURN_IF_ERROR(need(0, args[0]->type.id == TypeId::kVarchar, "a VARCHAR"));
    return make(ScalarFunction::kCharLength, SqlType::bigint(nullable));
  }
  if (name == "substring") {
    FRESHET_RETURN_IF_ERROR(arity(2, 3));
    FRESHET_RETURN_IF_ERROR(need(0, args[0]->type.id == TypeId::kVarchar, "a VARCHAR"));
    for (size_t i = 1; i < args.size(); ++i) {
      FRESHET_RETURN_IF_ERROR(need(i, args[i]->type.is_integer(), "an integer"));
      args[i] = cast_to(std::move(args[i]), SqlType::bigint());
    }
    return make(ScalarFunction::kSubstring, SqlType::varchar(nullable));
  }
  if (name == "now") {
    // The step's time: constant within a step (the planner reads it from the circuit's clock).
    FRESHET_RETURN_IF_ERROR(arity(0, 0));
    return make_expr(ExprKind::kNow, SqlType::timestamp(false), {});
  }
  return catalog_mismatch(name);
}

}  // namespace freshet::sql
