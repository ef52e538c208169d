// Datetime and interval arithmetic over non-NULL operands (typed by
// bind_temporal.cpp, Feldera's semantics):
//
//   TIMESTAMP ± day-time interval   microseconds added
//   TIMESTAMP ± year-month interval months added, the day clamped to the
//                                   month's end (2024-01-31 + 1 month = 2024-02-29)
//   DATE ± day-time interval        whole days of the interval (truncated toward
//                                   zero: DATE '2024-01-01' + INTERVAL '-10' MINUTE
//                                   is 2024-01-01), result a DATE
//   DATE ± year-month interval      as TIMESTAMP, result a DATE
//   TIME ± day-time interval        wraps modulo one day
//   TIME ± year-month interval      unchanged (whole days)
//   (a - b) <day-time qualifier>    microseconds between them (DATEs at midnight)
//   (a - b) <year-month qualifier>  whole months from b to a (months_between)
//   interval ± interval             checked
//   interval * number, / number     exact for integers and DECIMAL, through
//                                   double for REAL/DOUBLE; truncated toward zero
//
// Errors (kOverflow): "timestamp out of range in <expr>" / "date out of range"
// when a result leaves 0000-01-01 .. 9999-12-31, "interval overflow in <expr>";
// "division by zero" (kInvalidArgument).
#include <cmath>

#include "evaluate_internal.h"
#include "freshet/types/interval.h"
#include "freshet/types/temporal.h"

namespace freshet::sql::internal {
namespace {

Datum interval_overflow(Evaluator& evaluator, const Expr& expr) {
  return evaluator.fail(ErrorCode::kOverflow, "interval overflow", expr);
}

Datum out_of_range(Evaluator& evaluator, const Expr& expr) {
  const char* what = expr.type.id == TypeId::kDate ? "date" : "timestamp";
  return evaluator.fail(ErrorCode::kOverflow, std::string(what) + " out of range", expr);
}

int64_t as_micros(const Datum& value, const SqlType& type) {
  return type.id == TypeId::kDate ? value.integer * kMicrosPerDay : value.integer;
}

// interval * number or interval / number, truncated toward zero.
Datum scale_interval(Evaluator& evaluator, const Expr& expr, int64_t interval, const Datum& number) {
  const SqlType& type = expr.children[1]->type;
  bool divide = expr.op == AstOperator::kDivide;
  if (type.is_floating()) {
    if (divide && number.floating == 0) return evaluator.fail(ErrorCode::kInvalidArgument, "division by zero", expr);
    double result =
        divide ? static_cast<double>(interval) / number.floating : static_cast<double>(interval) * number.floating;
    // 2^63 is exactly representable; anything at or beyond it (or NaN) does not fit.
    if (!(std::fabs(result) < 9223372036854775808.0)) return interval_overflow(evaluator, expr);
    return Datum::of_int(static_cast<int64_t>(std::trunc(result)));
  }
  int128 factor = type.id == TypeId::kDecimal ? number.decimal : int128{number.integer};
  int128 unit = type.id == TypeId::kDecimal ? pow10_int128(type.scale) : 1;
  int128 result;
  if (divide) {
    if (factor == 0) return evaluator.fail(ErrorCode::kInvalidArgument, "division by zero", expr);
    int128 numerator;
    if (__builtin_mul_overflow(int128{interval}, unit, &numerator)) return interval_overflow(evaluator, expr);
    result = numerator / factor;
  } else {
    if (__builtin_mul_overflow(int128{interval}, factor, &result)) return interval_overflow(evaluator, expr);
    result /= unit;
  }
  if (result > INT64_MAX || result < INT64_MIN) return interval_overflow(evaluator, expr);
  return Datum::of_int(static_cast<int64_t>(result));
}

// (a - b) as an interval of expr.type.
Datum difference(Evaluator& evaluator, const Expr& expr, const Datum& left, const Datum& right) {
  int64_t a = as_micros(left, expr.children[0]->type), b = as_micros(right, expr.children[1]->type);
  if (expr.type.id == TypeId::kIntervalYearMonth) return Datum::of_int(months_between(a, b));
  int64_t result;
  if (__builtin_sub_overflow(a, b, &result)) return interval_overflow(evaluator, expr);
  return Datum::of_int(result);
}

// datetime ± interval; `interval` is already negated for -.
Datum shift(Evaluator& evaluator, const Expr& expr, int64_t datetime, int64_t interval) {
  bool months = expr.children[1]->type.id == TypeId::kIntervalYearMonth;
  int64_t result = 0;
  switch (expr.type.id) {
    case TypeId::kTimestamp:
      if (months ? !add_months_to_timestamp(datetime, interval, &result)
                 : __builtin_add_overflow(datetime, interval, &result) || !timestamp_in_range(result)) {
        return out_of_range(evaluator, expr);
      }
      return Datum::of_int(result);
    case TypeId::kDate:
      if (months ? !add_months_to_date(datetime, interval, &result)
                 : __builtin_add_overflow(datetime, interval / kMicrosPerDay, &result) || !date_in_range(result)) {
        return out_of_range(evaluator, expr);
      }
      return Datum::of_int(result);
    case TypeId::kTime: {
      if (months) return Datum::of_int(datetime);
      int64_t wrapped = (datetime + interval % kMicrosPerDay) % kMicrosPerDay;
      return Datum::of_int(wrapped < 0 ? wrapped + kMicrosPerDay : wrapped);
    }
    default: return evaluator.fail(ErrorCode::kInternal, "bad datetime arithmetic", expr);
  }
}

}  // namespace

bool is_temporal_arithmetic(const Expr& expr) { return expr.type.is_datetime() || expr.type.is_interval(); }

Datum temporal_arithmetic(Evaluator& evaluator, const Expr& expr, const Datum& left, const Datum& right) {
  const SqlType& first = expr.children[0]->type;
  if (first.is_datetime() && expr.type.is_interval()) return difference(evaluator, expr, left, right);
  if (first.is_datetime()) {
    int64_t interval = right.integer;
    // TIME only needs the interval modulo a day, whose negation cannot overflow.
    if (first.id == TypeId::kTime) interval %= kMicrosPerDay;
    if (expr.op == AstOperator::kSubtract && __builtin_sub_overflow(int64_t{0}, interval, &interval)) {
      return out_of_range(evaluator, expr);
    }
    return shift(evaluator, expr, left.integer, interval);
  }
  int64_t result;
  switch (expr.op) {
    case AstOperator::kAdd:
      if (__builtin_add_overflow(left.integer, right.integer, &result)) return interval_overflow(evaluator, expr);
      return Datum::of_int(result);
    case AstOperator::kSubtract:
      if (__builtin_sub_overflow(left.integer, right.integer, &result)) return interval_overflow(evaluator, expr);
      return Datum::of_int(result);
    case AstOperator::kMultiply:
    case AstOperator::kDivide: return scale_interval(evaluator, expr, left.integer, right);
    default: return evaluator.fail(ErrorCode::kInternal, "bad interval arithmetic", expr);
  }
}

}  // namespace freshet::sql::internal
