// CASTs to and from TIME and the intervals (as Feldera's sqllib casts):
//
//   VARCHAR → TIME          'HH:MM:SS[.f]' after trimming blanks
//   TIMESTAMP → TIME        the time of day
//   TIME → TIMESTAMP        that time on 1970-01-01
//   VARCHAR → INTERVAL q    the text as an interval literal of qualifier q
//   integer/DECIMAL → INTERVAL <one field>   that many units (DECIMAL truncated
//                           to microseconds or months)
//   INTERVAL <one field> → integer          whole units, truncated toward zero
//   INTERVAL → INTERVAL     of the same kind: the value is kept
// TIME and intervals → VARCHAR are in evaluate_cast.cpp (value_to_text).
#include "evaluate_internal.h"
#include "freshet/types/interval.h"
#include "freshet/types/temporal.h"

namespace freshet::sql::internal {
namespace {

std::string type_text(const SqlType& type) { return type.with_nullable(true).to_string(); }

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

Datum unsupported(Evaluator& evaluator, const Expr& cast, const SqlType& from, const SqlType& to) {
  return evaluator.fail(ErrorCode::kTypeError, "cannot cast " + type_text(from) + " to " + type_text(to), cast);
}

Datum to_time(Evaluator& evaluator, const Expr& cast, const Datum& value, const SqlType& from, const SqlType& to) {
  switch (from.id) {
    case TypeId::kTime: return value;
    case TypeId::kTimestamp: {
      int64_t rest = value.integer % kMicrosPerDay;
      return Datum::of_int(rest < 0 ? rest + kMicrosPerDay : rest);
    }
    case TypeId::kVarchar: {
      std::string_view text = trim(value.string);
      Result<int64_t> micros = parse_time(text);
      if (!micros.ok()) {
        return evaluator.fail(ErrorCode::kTypeError, "cannot cast '" + std::string(text) + "' to TIME", cast);
      }
      return Datum::of_int(*micros);
    }
    default: return unsupported(evaluator, cast, from, to);
  }
}

Datum to_interval(Evaluator& evaluator, const Expr& cast, const Datum& value, const SqlType& from, const SqlType& to) {
  if (from.id == to.id) return value;
  if (from.id == TypeId::kVarchar) {
    Result<int64_t> parsed = parse_interval(trim(value.string), to);
    if (!parsed.ok()) return evaluator.fail(ErrorCode::kTypeError, "cannot cast " + parsed.status().message(), cast);
    return Datum::of_int(*parsed);
  }
  int64_t unit = interval_unit_size(to.interval_start());
  int128 units = from.id == TypeId::kDecimal ? value.decimal : int128{value.integer};
  int128 scale = from.id == TypeId::kDecimal ? pow10_int128(from.scale) : 1;
  if (!from.is_integer() && from.id != TypeId::kDecimal) return unsupported(evaluator, cast, from, to);
  int128 result;
  if (__builtin_mul_overflow(units, int128{unit}, &result) || (result /= scale) > INT64_MAX || result < INT64_MIN) {
    return evaluator.fail(ErrorCode::kOverflow,
                          "cannot cast " + value_to_text(value, from) + " to " + type_text(to) + ": out of range",
                          cast);
  }
  return Datum::of_int(static_cast<int64_t>(result));
}

Datum interval_to_integer(Evaluator& evaluator, const Expr& cast, const Datum& value, const SqlType& from,
                          const SqlType& to) {
  int64_t units = value.integer / interval_unit_size(from.interval_start());
  if (!integer_fits(to.id, units)) {
    return evaluator.fail(ErrorCode::kOverflow,
                          "cannot cast " + value_to_text(value, from) + " to " + type_text(to) + ": out of range",
                          cast);
  }
  return Datum::of_int(units);
}

}  // namespace

bool is_temporal_cast(const SqlType& from, const SqlType& to) {
  if (to.id == TypeId::kVarchar) return false;
  return to.id == TypeId::kTime || to.is_interval() || from.id == TypeId::kTime || from.is_interval();
}

Datum cast_temporal(Evaluator& evaluator, const Expr& cast, const Datum& value, const SqlType& from,
                    const SqlType& to) {
  if (to.id == TypeId::kTime) return to_time(evaluator, cast, value, from, to);
  if (to.is_interval()) return to_interval(evaluator, cast, value, from, to);
  if (from.id == TypeId::kTime && to.id == TypeId::kTimestamp) return value;  // 1970-01-01 is day 0
  if (from.is_interval() && to.is_integer()) return interval_to_integer(evaluator, cast, value, from, to);
  return unsupported(evaluator, cast, from, to);
}

}  // namespace freshet::sql::internal
