// SQL's typing rules as the binder applies them: implicit numeric widening,
// the result types of arithmetic, and which types may be compared.
#pragma once

#include <optional>

#include "freshet/sql/ast.h"
#include "freshet/types/sql_type.h"

namespace freshet::sql {

//! The type both operands of a comparison, IN, CASE, COALESCE or UNION
//! column are cast to; none when they cannot meet (VARCHAR vs BIGINT, say).
//! The result is nullable when either input is.
std::optional<SqlType> common_type(const SqlType& a, const SqlType& b);

//! The result type of `a op b` for + - * / %; none when not numeric.
//! For + - % both operands are cast to it; DECIMAL * and / keep their own
//! operand types (the evaluator rescales).
std::optional<SqlType> arithmetic_type(AstOperator op, const SqlType& a, const SqlType& b);

//! The result type of `a op b` when a side is a DATE, TIMESTAMP, TIME or an
//! interval (+ - * /), as Feldera: datetime ± interval keeps the datetime's
//! type (DATE + INTERVAL HOUR is a DATE), interval ± interval of one kind,
//! interval * number, interval / number. None when not allowed (DATE - DATE
//! needs a qualifier: `(a - b) DAY`). The binder puts the datetime, or the
//! interval of * and /, first.
std::optional<SqlType> temporal_arithmetic_type(AstOperator op, const SqlType& a, const SqlType& b);

//! The interval type that holds both (same kind): the wider qualifier.
SqlType widen_interval(const SqlType& a, const SqlType& b);

//! Whether CAST(from AS to) is allowed.
bool can_cast(const SqlType& from, const SqlType& to);

//! The DECIMAL type that holds every value of an integer type exactly.
SqlType decimal_for_integer(const SqlType& integer);

}  // namespace freshet::sql
