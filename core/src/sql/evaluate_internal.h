// The evaluator's parts, shared by expression.cpp (the dispatch) and the
// evaluate_*.cpp files. Every function here receives operands that are not
// NULL (the dispatch propagates NULL first) and reports errors through
// Evaluator::fail, which returns a NULL Datum.
#pragma once

#include <string>
#include <string_view>

#include "freshet/sql/expression.h"

namespace freshet::sql::internal {

// evaluate_arithmetic.cpp
//! -value for the type of `expr`.
Datum negate(Evaluator& evaluator, const Expr& expr, const Datum& value);
//! left op right for expr.op in kAdd..kModulo.
Datum arithmetic(Evaluator& evaluator, const Expr& expr, const Datum& left, const Datum& right);
//! Three-way comparison of two values of type `type`: <0, 0, >0.
int compare_values(const SqlType& type, const Datum& left, const Datum& right);
//! Whether the three-way result `order` satisfies comparison `op`.
bool comparison_holds(AstOperator op, int order);
//! Whether `value` fits the range of integer type `id` (TINYINT..BIGINT).
bool integer_fits(TypeId id, int64_t value);
//! Rescales with overflow detection; false when the result does not fit 128 bits.
bool rescale_checked(int128 unscaled, int from_scale, int to_scale, int128* out);

// evaluate_temporal.cpp
//! Whether `expr` (kArithmetic) is datetime or interval arithmetic.
bool is_temporal_arithmetic(const Expr& expr);
//! Datetime ± interval, (a - b) <qualifier>, interval ± interval, interval * / number.
Datum temporal_arithmetic(Evaluator& evaluator, const Expr& expr, const Datum& left, const Datum& right);

// evaluate_temporal_cast.cpp
//! Whether CAST(from AS to) involves TIME or an interval (other than to VARCHAR).
bool is_temporal_cast(const SqlType& from, const SqlType& to);
Datum cast_temporal(Evaluator& evaluator, const Expr& cast, const Datum& value, const SqlType& from, const SqlType& to);

// evaluate_cast.cpp
//! CAST(value AS to), value of type `from`.
Datum cast_value(Evaluator& evaluator, const Expr& cast, const Datum& value, const SqlType& from, const SqlType& to);
//! The shortest text that reads back as the same double: "1.5", "100", "1e+20".
std::string double_to_string(double value);
//! The same for a REAL (shortest text that reads back as the same float).
std::string real_to_string(float value);
//! A value of `type` as SQL text (no quotes), as CAST(... AS VARCHAR) gives it.
std::string value_to_text(const Datum& value, const SqlType& type);

// evaluate_functions.cpp
//! function(arguments) for expr.function; `arguments` has one Datum per child.
Datum call_function(Evaluator& evaluator, const Expr& expr, const Datum* arguments);
enum class LikeMatch : uint8_t { kNo, kYes, kBadEscape };
//! SQL LIKE: '%' any sequence, '_' one code point, everything else literal;
//! with an `escape` character (empty: none), it makes the _, % or escape
//! after it literal (anything else after it: kBadEscape).
LikeMatch like_matches(std::string_view text, std::string_view pattern, std::string_view escape = {});

// evaluate_math_functions.cpp
//! POWER, SQRT, EXP, LN, LOG10, LOG, SIGN, TRUNCATE, GREATEST, LEAST.
Datum call_math_function(Evaluator& evaluator, const Expr& expr, const Datum* arguments);

// evaluate_string_functions.cpp
//! CONCAT, CONCAT_WS, TRIM, POSITION, REPLACE, LEFT, RIGHT, REPEAT, REVERSE,
//! INITCAP, SPLIT_PART, MD5, RLIKE, REGEXP_REPLACE.
Datum call_string_function(Evaluator& evaluator, const Expr& expr, const Datum* arguments);

// evaluate_time_functions.cpp
//! DATE_TRUNC, FLOOR/CEIL TO, TIMESTAMPADD/DIFF, DATEDIFF, MAKE_DATE, MAKE_TIMESTAMP.
Datum call_time_function(Evaluator& evaluator, const Expr& expr, const Datum* arguments);
//! EXTRACT(expr.field FROM value), value of type `from` (DATE or TIMESTAMP).
Datum extract_field(const Expr& expr, const Datum& value, const SqlType& from);

}  // namespace freshet::sql::internal
