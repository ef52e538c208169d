// Bound expressions: the typed form of an SQL expression that the binder
// produces from the syntax tree and the planner evaluates per row. Every
// node has its result type; the binder has already inserted the casts that
// make the operands of an operator agree (implicit numeric widening), so the
// evaluator never guesses a type.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "freshet/common/status.h"
#include "freshet/sql/ast.h"
#include "freshet/types/decimal.h"
#include "freshet/types/row.h"

namespace freshet::sql {

//! One SQL value during evaluation, without allocation for fixed-width types.
//! Which field holds the value follows the expression's type: `integer` for
//! BOOLEAN (0/1), integer types, DATE (days), TIMESTAMP and TIME (microseconds),
//! day-time intervals (microseconds) and year-month intervals (months);
//! `floating` for REAL/DOUBLE; `decimal` (unscaled, the type's scale) for
//! DECIMAL; `string` for VARCHAR (bytes owned by the row or the evaluator).
struct Datum {
  bool null = true;
  int64_t integer = 0;
  double floating = 0;
  int128 decimal = 0;
  std::string_view string;

  static Datum null_value() { return Datum(); }
  static Datum of_bool(bool value) { Datum d; d.null = false; d.integer = value ? 1 : 0; return d; }
  static Datum of_int(int64_t value) { Datum d; d.null = false; d.integer = value; return d; }
  static Datum of_double(double value) { Datum d; d.null = false; d.floating = value; return d; }
  static Datum of_decimal(int128 value) { Datum d; d.null = false; d.decimal = value; return d; }
  static Datum of_string(std::string_view value) { Datum d; d.null = false; d.string = value; return d; }
};

enum class ExprKind : uint8_t {
  kColumn,      //!< the input row's column `column`
  kLiteral,     //!< `literal` (strings point into `literal_text`)
  kNegate,      //!< -children[0]
  kArithmetic,  //!< children[0] op children[1]; op in kAdd..kModulo; operands have the result type,
                //!< except DECIMAL * and / whose operands keep their own scales, and datetime/interval
                //!< arithmetic (bind_temporal.cpp: the datetime, or the interval of * and /, comes first)
  kCompare,     //!< children[0] op children[1]; op in kEqual..kGreaterEqual; operands share one type
  kAnd,         //!< three-valued AND over children (2 or more)
  kOr,          //!< three-valued OR over children (2 or more)
  kNot,         //!< three-valued NOT
  kIsNull,      //!< children[0] IS [NOT] NULL (negated); never NULL itself
  kInList,      //!< children[0] [NOT] IN (children[1..]); all share one type; SQL NULL rules
  kLike,        //!< children[0] [NOT] LIKE children[1]; '%' and '_' wildcards, no escape
  kCase,        //!< searched CASE: WHEN children[2i] THEN children[2i+1] ..., ELSE children.back() when has_else
  kCast,        //!< CAST(children[0] AS type)
  kCoalesce,    //!< the first non-NULL of children (same type)
  kFunction,    //!< function(children...)
  kExtract,     //!< EXTRACT(field FROM children[0]) -> BIGINT (DATE_PART, YEAR(x), DAYOFWEEK(x)...)
  kNow,         //!< NOW() / CURRENT_TIMESTAMP: the step's time (TIMESTAMP); the planner replaces it
                //!< with a column of the clock (operators/temporal_filter.h), so it is never evaluated
};

enum class ScalarFunction : uint8_t {
  kAbs,         //!< ABS(numeric)
  kRound,       //!< ROUND(numeric [, digits INTEGER literal]) half away from zero
  kLower,       //!< LOWER(varchar)
  kUpper,       //!< UPPER(varchar)
  kCharLength,  //!< CHAR_LENGTH(varchar) -> BIGINT, in code points
  kSubstring,   //!< SUBSTRING(varchar, start [, length]) 1-based, in code points
  kConcat,      //!< varchar || varchar (NULL if either is)
  kFloor,       //!< FLOOR(numeric): integers unchanged, DECIMAL to scale 0
  kCeil,        //!< CEIL(numeric)
  // Time functions (evaluate_time_functions.cpp); `field` holds their time unit.
  kDateTrunc,      //!< DATE_TRUNC / TIMESTAMP_TRUNC / TIME_TRUNC(children[0], field): the argument's type
  kFloorTo,        //!< FLOOR(children[0] TO field): DATE, TIMESTAMP or TIME
  kCeilTo,         //!< CEIL(children[0] TO field)
  kTimestampAdd,   //!< TIMESTAMPADD(field, children[0] BIGINT, children[1] DATE, TIMESTAMP or TIME)
  kTimestampDiff,  //!< TIMESTAMPDIFF(field, children[0], children[1]) -> INTEGER; both TIMESTAMP or both TIME
  kDateDiff,       //!< DATEDIFF(field, children[0], children[1]) -> INTEGER; both DATE
  kMakeDate,       //!< MAKE_DATE(year, month, day BIGINT) -> DATE; NULL when no such date
  kMakeTimestamp,  //!< MAKE_TIMESTAMP(y, mo, d, h, mi BIGINT, s numeric) -> TIMESTAMP; NULL when invalid
  kMakeTime,       //!< MAKE_TIME(h, mi BIGINT, s numeric) -> TIME; NULL when invalid
  // Math (evaluate_math_functions.cpp); NULL on a NULL argument.
  kPower,     //!< POWER(DOUBLE, DOUBLE) -> DOUBLE
  kSqrt,      //!< SQRT(DOUBLE): NaN below 0
  kExp,       //!< EXP(DOUBLE)
  kLn,        //!< LN(DOUBLE): -inf at 0, an error below
  kLog10,     //!< LOG10(DOUBLE): -inf at 0, an error below
  kLog,       //!< LOG(value [, base]) DOUBLE: natural without a base
  kSign,      //!< SIGN(numeric): -1, 0 or 1 in the argument's type
  kTruncate,  //!< TRUNCATE(numeric [, digits INTEGER literal]): toward zero
  kGreatest,  //!< GREATEST(x, ...): children share one type; NULL if any is NULL (Feldera)
  kLeast,     //!< LEAST(x, ...)
  // Strings (evaluate_string_functions.cpp); NULL on a NULL argument unless said.
  kConcatAll,      //!< CONCAT(varchar, ...)
  kConcatWs,       //!< CONCAT_WS(separator, varchar, ...): NULL only if the separator is; NULL items skipped
  kTrimBoth,       //!< TRIM(BOTH children[0] FROM children[1]): children[0] is a set of characters
  kTrimLeading,    //!< TRIM(LEADING ...), LTRIM(s)
  kTrimTrailing,   //!< TRIM(TRAILING ...), RTRIM(s)
  kPosition,       //!< POSITION(children[0] IN children[1]) -> INTEGER, 1-based code points, 0 if absent
  kReplace,        //!< REPLACE(haystack, needle, replacement): every occurrence
  kLeft,           //!< LEFT(varchar, BIGINT count) in code points
  kRight,          //!< RIGHT(varchar, BIGINT count)
  kRepeat,         //!< REPEAT(varchar, BIGINT count): '' for count <= 0
  kReverse,        //!< REVERSE(varchar) by code points
  kInitcap,        //!< INITCAP(varchar): words of alphanumerics, first upper, rest lower
  kSplitPart,      //!< SPLIT_PART(varchar, delimiter, BIGINT n): negative n from the end
  kMd5,            //!< MD5(varchar) -> 32 hex digits
  kRlike,          //!< RLIKE(varchar, pattern) -> BOOLEAN: the regex matches somewhere
  kRegexpReplace,  //!< REGEXP_REPLACE(varchar, pattern [, replacement]): every match; $1, ${name}
  //! TRUE when children[0] (a scalar subquery's row count for the outer row,
  //! BIGINT) is at most 1; a step error naming the subquery (`literal_text`)
  //! when it is more (bind_subquery.cpp).
  kScalarSubquery,
};

//! EXTRACT's field: any time unit (freshet/types/time_unit.h).
using ExtractField = TimeUnit;

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;
//! An input's column names, by position: what Expr::to_string names columns with.
using ColumnNames = std::vector<std::string>;
}  // namespace freshet::sql

namespace freshet {
class Regex;
}

namespace freshet::sql {

struct Expr {
  ExprKind kind;
  SqlType type;
  AstOperator op = AstOperator::kNone;
  size_t column = 0;
  Datum literal;
  std::string literal_text;  //!< storage for a VARCHAR literal
  ScalarFunction function = ScalarFunction::kAbs;
  ExtractField field = ExtractField::kYear;
  bool negated = false;
  bool has_else = false;
  //! kInList: children[1..] are constants, not NULL, distinct and in
  //! ascending order, so a binary search finds x (sort_in_list).
  bool sorted = false;
  //! kLiteral NULL written as a bare NULL (or an expression of only such
  //! NULLs, folded): it has no type of its own, `type` is a placeholder that
  //! the binder replaces by the type the context needs (docs/sql.md, "The
  //! type of NULL"). A CAST(NULL AS T) is a NULL of type T, not untyped.
  bool untyped = false;
  std::vector<ExprPtr> children;
  //! RLIKE / REGEXP_REPLACE with a constant pattern: compiled once by the binder.
  std::shared_ptr<const Regex> regex;

  //! A readable rendering for plans and messages: "($0 + 1)", "CAST($2 AS DOUBLE)";
  //! with the input's column names, "(amount + 1)" (explain's descriptions).
  //! Without names, equal texts mean equal expressions (the binder compares them).
  std::string to_string(const ColumnNames* names = nullptr) const;
};

// Constructors used by the binder and tests.
ExprPtr column_expr(size_t column, SqlType type);
ExprPtr literal_expr(const Value& value, SqlType type);
ExprPtr null_literal(SqlType type);
ExprPtr make_expr(ExprKind kind, SqlType type, std::vector<ExprPtr> children);
//! A call of `function` on `args` (ExprKind::kFunction) giving `type`.
ExprPtr function_expr(ScalarFunction function, SqlType type, std::vector<ExprPtr> args);
//! A deep copy of a bound expression; with `columns`, each column reference
//! $c is replaced by a copy of columns[c] (an expression over another input).
ExprPtr clone_expr(const Expr& expr, const std::vector<ExprPtr>* columns = nullptr);
//! Sorts a long IN list of constants (kInList) so that it is searched in
//! O(log n) per row (sets Expr::sorted); leaves any other list as it is.
void sort_in_list(Expr& in);

//! Evaluates bound expressions over rows. Errors (division by zero,
//! overflow, a bad cast) are sticky: evaluation goes on returning NULLs and
//! error() reports the first one; the caller checks it once per batch.
class Evaluator {
 public:
  //! Evaluates `expr` over `row`. String results stay valid until the next
  //! start_row().
  Datum evaluate(const Expr& expr, const RowReader& row);
  //! Releases the strings of the previous row (call before each row).
  void start_row() { scratch_used_ = 0; }

  bool failed() const { return !error_.ok(); }
  const Status& error() const { return error_; }
  //! Takes the first error and clears it.
  Status take_error();

  //! Writes a Datum of type `type` into column `column` of `out`.
  static void write(const Datum& value, const SqlType& type, size_t column, RowBuilder& out);
  //! Reads column `column` of `row` as a Datum.
  static Datum read(const RowReader& row, size_t column);

  //! Names the columns of the rows this evaluator reads, for its error
  //! messages: "integer overflow in (a + b)", not "($0 + $1)". The planner
  //! gives every operator's evaluator its input's names; they are read only
  //! when an error is formatted.
  void set_column_names(ColumnNames names) { names_ = std::make_shared<const ColumnNames>(std::move(names)); }
  //! `expr` as an error message shows it: over the column names when given.
  std::string describe(const Expr& expr) const { return expr.to_string(names_.get()); }

  // For the evaluator's parts (casts, functions):
  //! A string buffer that stays valid until start_row().
  std::string* scratch();
  //! Records an error (the first one wins) and returns NULL.
  Datum fail(ErrorCode code, std::string message);
  //! The same, naming the node that failed: "<what> in <expr>", e.g.
  //! "division by zero in (total / count)".
  Datum fail(ErrorCode code, std::string_view what, const Expr& at);

 private:
  Status error_;
  std::shared_ptr<const ColumnNames> names_;
  std::vector<std::unique_ptr<std::string>> scratch_strings_;
  size_t scratch_used_ = 0;
};

}  // namespace freshet::sql
