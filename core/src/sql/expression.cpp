// Bound expressions: constructors, rendering, and the evaluator's dispatch.
//
// ## Design
// The dispatch evaluates children, applies SQL's NULL rules (NULL in → NULL
// out, except IS NULL, COALESCE, CASE, AND/OR/NOT and IN) and hands non-NULL
// operands to the parts in evaluate_arithmetic.cpp, evaluate_cast.cpp and
// evaluate_functions.cpp. Errors are sticky (Evaluator::fail): the failing
// node yields NULL and evaluation goes on; the caller checks error() once.
//
// AND and OR stop at the first FALSE (TRUE) child: the remaining children are
// not evaluated, so `x <> 0 AND 10 / x > 1` does not fail for x = 0. SQL
// leaves the order open; this is the order users expect.
//
// A VARCHAR literal's bytes live in Expr::literal_text. Expr::literal.string
// points at them after construction, but moving an Expr can move a short
// (SSO) string's bytes, so evaluate() never trusts that view: it re-points
// at literal_text on every evaluation.
#include "freshet/sql/expression.h"

#include "evaluate_internal.h"
#include "expression_tools.h"
#include "freshet/types/interval.h"
#include "freshet/types/temporal.h"

namespace freshet::sql {

using internal::compare_values;
using internal::comparison_holds;

// ------------------------------------------------------------- constructors

ExprPtr column_expr(size_t column, SqlType type) {
  auto expr = std::make_unique<Expr>();
  expr->kind = ExprKind::kColumn;
  expr->type = type;
  expr->column = column;
  return expr;
}

namespace {

double value_as_double(const Value& value) {
  switch (value.type()) {
    case TypeId::kReal:
    case TypeId::kDouble: return value.as_double();
    case TypeId::kDecimal:
      return static_cast<double>(value.as_decimal()) / static_cast<double>(pow10_int128(value.decimal_scale()));
    default: return static_cast<double>(value.as_int());
  }
}

}  // namespace

//! The Value is converted to `type` (an integer to DECIMAL or DOUBLE, a
//! DECIMAL to another scale); text is not parsed: pass a Value of the type.
ExprPtr literal_expr(const Value& value, SqlType type) {
  auto expr = std::make_unique<Expr>();
  expr->kind = ExprKind::kLiteral;
  expr->type = type;
  if (value.is_null()) return expr;
  Datum& datum = expr->literal;
  datum.null = false;
  switch (type.id) {
    case TypeId::kReal:
    case TypeId::kDouble: {
      double number = value_as_double(value);
      datum.floating = type.id == TypeId::kReal ? static_cast<float>(number) : number;
      break;
    }
    case TypeId::kDecimal:
      datum.decimal = value.type() == TypeId::kDecimal
                          ? rescale_decimal(value.as_decimal(), value.decimal_scale(), type.scale)
                          : value.as_int() * pow10_int128(type.scale);
      break;
    case TypeId::kVarchar:
      expr->literal_text = value.as_string();
      datum.string = expr->literal_text;
      break;
    default: datum.integer = value.as_int(); break;
  }
  return expr;
}

ExprPtr null_literal(SqlType type) {
  auto expr = std::make_unique<Expr>();
  expr->kind = ExprKind::kLiteral;
  expr->type = type;
  return expr;
}

ExprPtr make_expr(ExprKind kind, SqlType type, std::vector<ExprPtr> children) {
  auto expr = std::make_unique<Expr>();
  expr->kind = kind;
  expr->type = type;
  expr->children = std::move(children);
  return expr;
}

ExprPtr function_expr(ScalarFunction function, SqlType type, std::vector<ExprPtr> args) {
  ExprPtr call = make_expr(ExprKind::kFunction, type, std::move(args));
  call->function = function;
  return call;
}

// Expr's members, in order: clone_expr copies each by name, so a member added
// to Expr must be copied there too (the assertion notices most additions).
struct ExprMembers {
  ExprKind kind;
  SqlType type;
  AstOperator op;
  size_t column;
  Datum literal;
  std::string literal_text;
  ScalarFunction function;
  ExtractField field;
  bool negated;
  bool has_else;
  bool sorted;
  bool untyped;
  std::vector<ExprPtr> children;
  std::shared_ptr<const Regex> regex;
};
static_assert(sizeof(ExprMembers) == sizeof(Expr), "Expr changed: copy its new members in clone_expr()");

ExprPtr clone_expr(const Expr& expr, const std::vector<ExprPtr>* columns) {
  if (expr.kind == ExprKind::kColumn && columns) return clone_expr(*(*columns)[expr.column]);
  auto copy = std::make_unique<Expr>();
  copy->kind = expr.kind;
  copy->type = expr.type;
  copy->op = expr.op;
  copy->column = expr.column;
  copy->literal = expr.literal;
  copy->literal_text = expr.literal_text;
  // A VARCHAR literal's view points into literal_text: point it at the copy's.
  if (copy->type.id == TypeId::kVarchar && !copy->literal.null) copy->literal.string = copy->literal_text;
  copy->function = expr.function;
  copy->field = expr.field;
  copy->negated = expr.negated;
  copy->has_else = expr.has_else;
  copy->sorted = expr.sorted;
  copy->untyped = expr.untyped;
  for (const ExprPtr& child : expr.children) copy->children.push_back(clone_expr(*child, columns));
  copy->regex = expr.regex;
  return copy;
}

// ---------------------------------------------------------------- rendering

const char* operator_text(AstOperator op) {
  switch (op) {
    case AstOperator::kAdd: return "+";
    case AstOperator::kSubtract: return "-";
    case AstOperator::kMultiply: return "*";
    case AstOperator::kDivide: return "/";
    case AstOperator::kModulo: return "%";
    case AstOperator::kEqual: return "=";
    case AstOperator::kNotEqual: return "<>";
    case AstOperator::kLess: return "<";
    case AstOperator::kLessEqual: return "<=";
    case AstOperator::kGreater: return ">";
    case AstOperator::kGreaterEqual: return ">=";
    case AstOperator::kConcat: return "||";
    default: return "?";
  }
}

namespace {

const char* function_name(ScalarFunction function) {
  switch (function) {
    case ScalarFunction::kAbs: return "abs";
    case ScalarFunction::kRound: return "round";
    case ScalarFunction::kLower: return "lower";
    case ScalarFunction::kUpper: return "upper";
    case ScalarFunction::kCharLength: return "char_length";
    case ScalarFunction::kSubstring: return "substring";
    case ScalarFunction::kConcat: return "||";
    case ScalarFunction::kFloor: return "floor";
    case ScalarFunction::kCeil: return "ceil";
    case ScalarFunction::kDateTrunc: return "date_trunc";
    case ScalarFunction::kFloorTo: return "floor_to";
    case ScalarFunction::kCeilTo: return "ceil_to";
    case ScalarFunction::kTimestampAdd: return "timestampadd";
    case ScalarFunction::kTimestampDiff: return "timestampdiff";
    case ScalarFunction::kDateDiff: return "datediff";
    case ScalarFunction::kMakeDate: return "make_date";
    case ScalarFunction::kMakeTimestamp: return "make_timestamp";
    case ScalarFunction::kMakeTime: return "make_time";
    case ScalarFunction::kPower: return "power";
    case ScalarFunction::kSqrt: return "sqrt";
    case ScalarFunction::kExp: return "exp";
    case ScalarFunction::kLn: return "ln";
    case ScalarFunction::kLog10: return "log10";
    case ScalarFunction::kLog: return "log";
    case ScalarFunction::kSign: return "sign";
    case ScalarFunction::kTruncate: return "truncate";
    case ScalarFunction::kGreatest: return "greatest";
    case ScalarFunction::kLeast: return "least";
    case ScalarFunction::kConcatAll: return "concat";
    case ScalarFunction::kConcatWs: return "concat_ws";
    case ScalarFunction::kTrimBoth: return "trim_both";
    case ScalarFunction::kTrimLeading: return "trim_leading";
    case ScalarFunction::kTrimTrailing: return "trim_trailing";
    case ScalarFunction::kPosition: return "position";
    case ScalarFunction::kReplace: return "replace";
    case ScalarFunction::kLeft: return "left";
    case ScalarFunction::kRight: return "right";
    case ScalarFunction::kRepeat: return "repeat";
    case ScalarFunction::kReverse: return "reverse";
    case ScalarFunction::kInitcap: return "initcap";
    case ScalarFunction::kSplitPart: return "split_part";
    case ScalarFunction::kMd5: return "md5";
    case ScalarFunction::kRlike: return "rlike";
    case ScalarFunction::kRegexpReplace: return "regexp_replace";
    case ScalarFunction::kScalarSubquery: return "scalar_subquery";
  }
  return "?";
}

const char* field_name(ExtractField field) { return time_unit_name(field); }

// Functions whose time unit is `field`, rendered as their first argument.
bool takes_time_unit(ScalarFunction function) {
  return function >= ScalarFunction::kDateTrunc && function <= ScalarFunction::kDateDiff;
}

std::string literal_to_string(const Expr& expr) {
  if (expr.literal.null) return "NULL";
  switch (expr.type.id) {
    case TypeId::kBoolean: return expr.literal.integer ? "TRUE" : "FALSE";
    case TypeId::kVarchar: {
      std::string text = "'";
      for (char c : expr.literal_text) text += c == '\'' ? std::string("''") : std::string(1, c);
      return text + "'";
    }
    case TypeId::kDate: return "DATE '" + format_date(static_cast<int32_t>(expr.literal.integer)) + "'";
    case TypeId::kTimestamp: return "TIMESTAMP '" + format_timestamp(expr.literal.integer) + "'";
    case TypeId::kTime: return "TIME '" + format_time(expr.literal.integer) + "'";
    case TypeId::kIntervalDayTime:
    case TypeId::kIntervalYearMonth:
      return "INTERVAL '" + format_interval(expr.literal.integer, expr.type) + "' " +
             expr.type.with_nullable(true).to_string().substr(9);
    default: return internal::value_to_text(expr.literal, expr.type);
  }
}

// "a, b, c" over children [from, children.size()).
std::string join_children(const Expr& expr, size_t from, const char* separator, const ColumnNames* names) {
  std::string text;
  for (size_t i = from; i < expr.children.size(); ++i) {
    if (i > from) text += separator;
    text += expr.children[i]->to_string(names);
  }
  return text;
}

}  // namespace

std::string Expr::to_string(const ColumnNames* names) const {
  auto child = [&](size_t i) { return children[i]->to_string(names); };
  auto join_children = [&](const Expr& expr, size_t from, const char* separator) {
    return sql::join_children(expr, from, separator, names);
  };
  switch (kind) {
    case ExprKind::kColumn:
      return names && column < names->size() ? (*names)[column] : "$" + std::to_string(column);
    case ExprKind::kLiteral: return literal_to_string(*this);
    case ExprKind::kNegate: {
      std::string operand = child(0);
      return operand.front() == '-' ? "(-(" + operand + "))" : "(-" + operand + ")";
    }
    case ExprKind::kArithmetic:
    case ExprKind::kCompare: return "(" + child(0) + " " + operator_text(op) + " " + child(1) + ")";
    case ExprKind::kAnd: return "(" + join_children(*this, 0, " AND ") + ")";
    case ExprKind::kOr: return "(" + join_children(*this, 0, " OR ") + ")";
    case ExprKind::kNot: return "(NOT " + child(0) + ")";
    case ExprKind::kIsNull: return "(" + child(0) + (negated ? " IS NOT NULL)" : " IS NULL)");
    case ExprKind::kInList:
      return "(" + child(0) + (negated ? " NOT IN (" : " IN (") + join_children(*this, 1, ", ") + "))";
    case ExprKind::kLike:
      return "(" + child(0) + (negated ? " NOT LIKE " : " LIKE ") + child(1) +
             (children.size() > 2 ? " ESCAPE " + child(2) : "") + ")";
    case ExprKind::kCase: {
      std::string text = "CASE";
      size_t pairs = (children.size() - (has_else ? 1 : 0)) / 2;
      for (size_t i = 0; i < pairs; ++i) text += " WHEN " + child(2 * i) + " THEN " + child(2 * i + 1);
      if (has_else) text += " ELSE " + children.back()->to_string(names);
      return text + " END";
    }
    case ExprKind::kCast:
      // Said to a user (with names), an integer literal the binder widened
      // reads as written: "amount > 10" (a cast that may round keeps its CAST).
      if (names && children[0]->kind == ExprKind::kLiteral && children[0]->type.is_integer() && type.is_numeric()) {
        return child(0);
      }
      return "CAST(" + child(0) + " AS " + type.with_nullable(true).to_string() + ")";
    case ExprKind::kCoalesce: return "coalesce(" + join_children(*this, 0, ", ") + ")";
    case ExprKind::kFunction:
      if (function == ScalarFunction::kConcat) return "(" + child(0) + " || " + child(1) + ")";
      if (takes_time_unit(function)) {
        return std::string(function_name(function)) + "(" + field_name(field) + ", " + join_children(*this, 0, ", ") + ")";
      }
      return std::string(function_name(function)) + "(" + join_children(*this, 0, ", ") + ")";
    case ExprKind::kNow: return "NOW()";
    case ExprKind::kExtract: return std::string("extract(") + field_name(field) + " FROM " + child(0) + ")";
  }
  return "?";
}

// ---------------------------------------------------------------- evaluator

Status Evaluator::take_error() {
  Status error = std::move(error_);
  error_ = Status::OK();
  return error;
}

std::string* Evaluator::scratch() {
  if (scratch_used_ == scratch_strings_.size()) scratch_strings_.push_back(std::make_unique<std::string>());
  std::string* buffer = scratch_strings_[scratch_used_++].get();
  buffer->clear();
  return buffer;
}

Datum Evaluator::fail(ErrorCode code, std::string message) {
  if (error_.ok()) error_ = Status(code, std::move(message));
  return Datum::null_value();
}

Datum Evaluator::fail(ErrorCode code, std::string_view what, const Expr& at) {
  if (!error_.ok()) return Datum::null_value();
  // A CAST that failed is named as a CAST, even of an integer literal (which
  // descriptions show bare, as the binder's widening of it).
  std::string where = at.kind == ExprKind::kCast ? "CAST(" + describe(*at.children[0]) + " AS " +
                                                       at.type.with_nullable(true).to_string() + ")"
                                                 : describe(at);
  error_ = Status(code, std::string(what) + " in " + where);
  return Datum::null_value();
}

void Evaluator::write(const Datum& value, const SqlType& type, size_t column, RowBuilder& out) {
  if (value.null) return out.set_null(column);
  switch (type.id) {
    case TypeId::kBoolean: return out.set_bool(column, value.integer != 0);
    case TypeId::kReal:
    case TypeId::kDouble: return out.set_double(column, value.floating);
    case TypeId::kDecimal: return out.set_decimal(column, value.decimal);
    case TypeId::kVarchar: return out.set_string(column, value.string);
    default: return out.set_int(column, value.integer);
  }
}

Datum Evaluator::read(const RowReader& row, size_t column) {
  if (row.is_null(column)) return Datum::null_value();
  switch (row.schema().type(column).id) {
    case TypeId::kBoolean: return Datum::of_bool(row.get_bool(column));
    case TypeId::kReal:
    case TypeId::kDouble: return Datum::of_double(row.get_double(column));
    case TypeId::kDecimal: return Datum::of_decimal(row.get_decimal(column));
    case TypeId::kVarchar: return Datum::of_string(row.get_string(column));
    default: return Datum::of_int(row.get_int(column));
  }
}

namespace {

// Three-valued truth of a BOOLEAN Datum.
enum class Truth : uint8_t { kFalse, kTrue, kUnknown };
Truth truth(const Datum& value) {
  if (value.null) return Truth::kUnknown;
  return value.integer != 0 ? Truth::kTrue : Truth::kFalse;
}

// AND: FALSE if any child is FALSE, else NULL if any is NULL, else TRUE.
// OR is its dual. Stops at the first deciding child.
Datum evaluate_connective(Evaluator& evaluator, const Expr& expr, const RowReader& row) {
  Truth deciding = expr.kind == ExprKind::kAnd ? Truth::kFalse : Truth::kTrue;
  bool unknown = false;
  for (const ExprPtr& child : expr.children) {
    Truth value = truth(evaluator.evaluate(*child, row));
    if (value == deciding) return Datum::of_bool(deciding == Truth::kTrue);
    unknown = unknown || value == Truth::kUnknown;
  }
  if (unknown) return Datum::null_value();
  return Datum::of_bool(deciding == Truth::kFalse);
}

// x IN (a, b): TRUE if x equals an item; else NULL if x or an item is NULL;
// else FALSE. NOT IN negates that (NULL stays NULL).
Datum evaluate_in_list(Evaluator& evaluator, const Expr& expr, const RowReader& row) {
  Datum needle = evaluator.evaluate(*expr.children[0], row);
  if (needle.null) return needle;
  const SqlType& type = expr.children[0]->type;
  if (expr.sorted) {
    size_t low = 1, high = expr.children.size();  // search [low, high)
    while (low < high) {
      size_t middle = low + (high - low) / 2;
      int order = compare_values(type, needle, evaluator.evaluate(*expr.children[middle], row));
      if (order == 0) return Datum::of_bool(!expr.negated);
      if (order < 0) {
        high = middle;
      } else {
        low = middle + 1;
      }
    }
    return Datum::of_bool(expr.negated);
  }
  bool saw_null = false;
  for (size_t i = 1; i < expr.children.size(); ++i) {
    Datum item = evaluator.evaluate(*expr.children[i], row);
    if (item.null) {
      saw_null = true;
    } else if (compare_values(type, needle, item) == 0) {
      return Datum::of_bool(!expr.negated);
    }
  }
  return saw_null ? Datum::null_value() : Datum::of_bool(expr.negated);
}

// Searched CASE: the first WHEN that is TRUE (NULL is not), else ELSE or NULL.
Datum evaluate_case(Evaluator& evaluator, const Expr& expr, const RowReader& row) {
  size_t pairs = (expr.children.size() - (expr.has_else ? 1 : 0)) / 2;
  for (size_t i = 0; i < pairs; ++i) {
    if (truth(evaluator.evaluate(*expr.children[2 * i], row)) == Truth::kTrue) {
      return evaluator.evaluate(*expr.children[2 * i + 1], row);
    }
  }
  return expr.has_else ? evaluator.evaluate(*expr.children.back(), row) : Datum::null_value();
}

// A scalar function is NULL on a NULL argument, except CONCAT_WS (which
// sees its NULLs). Most take at most six arguments; GREATEST, LEAST, CONCAT
// and CONCAT_WS any number.
Datum evaluate_function(Evaluator& evaluator, const Expr& expr, const RowReader& row) {
  Datum few[6];
  std::vector<Datum> many;
  size_t count = expr.children.size();
  if (count > 6) many.resize(count);
  Datum* arguments = count > 6 ? many.data() : few;
  bool any_null = false;
  for (size_t i = 0; i < count; ++i) {
    arguments[i] = evaluator.evaluate(*expr.children[i], row);
    any_null = any_null || arguments[i].null;
  }
  if (any_null && expr.function != ScalarFunction::kConcatWs) return Datum::null_value();
  return internal::call_function(evaluator, expr, arguments);
}

}  // namespace

Datum Evaluator::evaluate(const Expr& expr, const RowReader& row) {
  switch (expr.kind) {
    case ExprKind::kColumn: return read(row, expr.column);
    case ExprKind::kLiteral:
      if (expr.type.id == TypeId::kVarchar && !expr.literal.null) return Datum::of_string(expr.literal_text);
      return expr.literal;
    case ExprKind::kNegate: {
      Datum value = evaluate(*expr.children[0], row);
      return value.null ? value : internal::negate(*this, expr, value);
    }
    case ExprKind::kArithmetic: {
      Datum left = evaluate(*expr.children[0], row);
      Datum right = evaluate(*expr.children[1], row);
      if (left.null || right.null) return Datum::null_value();
      return internal::arithmetic(*this, expr, left, right);
    }
    case ExprKind::kCompare: {
      Datum left = evaluate(*expr.children[0], row);
      Datum right = evaluate(*expr.children[1], row);
      if (left.null || right.null) return Datum::null_value();
      return Datum::of_bool(comparison_holds(expr.op, compare_values(expr.children[0]->type, left, right)));
    }
    case ExprKind::kAnd:
    case ExprKind::kOr: return evaluate_connective(*this, expr, row);
    case ExprKind::kNot: {
      Datum value = evaluate(*expr.children[0], row);
      return value.null ? value : Datum::of_bool(value.integer == 0);
    }
    case ExprKind::kIsNull: return Datum::of_bool(evaluate(*expr.children[0], row).null != expr.negated);
    case ExprKind::kInList: return evaluate_in_list(*this, expr, row);
    case ExprKind::kLike: {
      Datum text = evaluate(*expr.children[0], row);
      Datum pattern = evaluate(*expr.children[1], row);
      if (text.null || pattern.null) return Datum::null_value();
      std::string_view escape = expr.children.size() > 2 ? std::string_view(expr.children[2]->literal_text) : "";
      internal::LikeMatch match = internal::like_matches(text.string, pattern.string, escape);
      if (match == internal::LikeMatch::kBadEscape) {
        return fail(ErrorCode::kInvalidArgument,
                    "invalid pattern '" + std::string(pattern.string) +
                        "' (its escape character must be followed by _, % or itself)",
                    expr);
      }
      return Datum::of_bool((match == internal::LikeMatch::kYes) != expr.negated);
    }
    case ExprKind::kCase: return evaluate_case(*this, expr, row);
    case ExprKind::kCast: {
      Datum value = evaluate(*expr.children[0], row);
      return value.null ? value : internal::cast_value(*this, expr, value, expr.children[0]->type, expr.type);
    }
    case ExprKind::kCoalesce:
      for (const ExprPtr& child : expr.children) {
        Datum value = evaluate(*child, row);
        if (!value.null) return value;
      }
      return Datum::null_value();
    case ExprKind::kFunction: return evaluate_function(*this, expr, row);
    case ExprKind::kNow: return fail(ErrorCode::kInternal, "NOW() was not planned as a clock column");
    case ExprKind::kExtract: {
      Datum value = evaluate(*expr.children[0], row);
      return value.null ? value : internal::extract_field(expr, value, expr.children[0]->type);
    }
  }
  return fail(ErrorCode::kInternal, "unknown expression kind", expr);
}

}  // namespace freshet::sql
