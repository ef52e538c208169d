// The time functions over non-NULL arguments (see bind_time_functions.cpp for
// their signatures); the calendar itself is types/calendar.h. Each is a
// per-row computation without state.
//
// Results outside 0000-01-01 .. 9999-12-31 (interval.h's range) and
// TIMESTAMPDIFF results outside INTEGER fail the step with kOverflow;
// MAKE_DATE and MAKE_TIMESTAMP of impossible parts are NULL, as Feldera.
#include <cmath>

#include "evaluate_internal.h"
#include "freshet/types/calendar.h"
#include "freshet/types/interval.h"

namespace freshet::sql::internal {
namespace {

// The words of temporal arithmetic's errors (evaluate_temporal.cpp).
Datum overflow(Evaluator& evaluator, const Expr& expr) {
  const char* what = expr.type.id == TypeId::kDate ? "date" : "timestamp";
  return evaluator.fail(ErrorCode::kOverflow, std::string(what) + " out of range", expr);
}

// Months in a unit of YEAR .. MONTH; 0 for shorter units.
int64_t months_of_unit(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kMillennium:
      return 12'000;
    case TimeUnit::kCentury:
      return 1'200;
    case TimeUnit::kDecade:
      return 120;
    case TimeUnit::kYear:
      return 12;
    case TimeUnit::kQuarter:
      return 3;
    case TimeUnit::kMonth:
      return 1;
    default:
      return 0;
  }
}

// Microseconds in a unit of WEEK .. MICROSECOND.
int64_t micros_of_unit(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kWeek:
      return 7 * kMicrosPerDay;
    case TimeUnit::kDay:
      return kMicrosPerDay;
    case TimeUnit::kHour:
      return kMicrosPerHour;
    case TimeUnit::kMinute:
      return kMicrosPerMinute;
    case TimeUnit::kSecond:
      return kMicrosPerSecond;
    case TimeUnit::kMillisecond:
      return 1000;
    default:
      return 1;
  }
}

Datum truncate(const Expr& expr, const Datum& value) {
  if (expr.type.id == TypeId::kDate) {
    return Datum::of_int(truncate_date(static_cast<int32_t>(value.integer), expr.field));
  }
  if (expr.type.id == TypeId::kTime) return Datum::of_int(floor_timestamp(value.integer, expr.field));
  return Datum::of_int(truncate_timestamp(value.integer, expr.field));
}

Datum floor_or_ceil(Evaluator& evaluator, const Expr& expr, const Datum& value) {
  bool floor = expr.function == ScalarFunction::kFloorTo;
  if (expr.type.id == TypeId::kDate) {
    int32_t days = static_cast<int32_t>(value.integer);
    if (floor) return Datum::of_int(floor_date(days, expr.field));
    std::optional<int32_t> ceiling = ceil_date(days, expr.field);
    return ceiling ? Datum::of_int(*ceiling) : overflow(evaluator, expr);
  }
  if (floor) return Datum::of_int(floor_timestamp(value.integer, expr.field));
  std::optional<int64_t> ceiling = ceil_timestamp(value.integer, expr.field);
  // A TIME's ceiling wraps at midnight (CEIL(TIME '23:30:00' TO HOUR) = 00:00:00, as Feldera).
  if (expr.type.id == TypeId::kTime) return Datum::of_int(*ceiling % kMicrosPerDay);
  return ceiling ? Datum::of_int(*ceiling) : overflow(evaluator, expr);
}

// TIMESTAMPADD(unit, count, x): months with the day clamped to the month's
// end, or a fixed number of microseconds.
Datum timestamp_add(Evaluator& evaluator, const Expr& expr, const Datum* arguments) {
  int64_t count = arguments[0].integer;
  bool from_date = expr.children[1]->type.id == TypeId::kDate;
  int64_t value = arguments[1].integer;
  if (expr.type.id == TypeId::kTime) {  // wraps modulo one day, like TIME + INTERVAL
    int128 shifted = (int128{value} + int128{count} * micros_of_unit(expr.field)) % kMicrosPerDay;
    return Datum::of_int(static_cast<int64_t>(shifted < 0 ? shifted + kMicrosPerDay : shifted));
  }
  if (int64_t months_per_unit = months_of_unit(expr.field)) {
    int64_t months;
    if (__builtin_mul_overflow(count, months_per_unit, &months)) return overflow(evaluator, expr);
    int64_t result;
    bool ok = from_date ? add_months_to_date(value, months, &result) : add_months_to_timestamp(value, months, &result);
    return ok ? Datum::of_int(result) : overflow(evaluator, expr);
  }
  if (expr.type.id == TypeId::kDate) {  // WEEK or DAY added to a DATE
    int64_t days;
    if (__builtin_mul_overflow(count, expr.field == TimeUnit::kWeek ? 7 : 1, &days) ||
        __builtin_add_overflow(days, value, &days) || !date_in_range(days)) {
      return overflow(evaluator, expr);
    }
    return Datum::of_int(days);
  }
  int64_t start = value, step, micros;
  if ((from_date && __builtin_mul_overflow(value, kMicrosPerDay, &start)) ||
      __builtin_mul_overflow(count, micros_of_unit(expr.field), &step) ||
      __builtin_add_overflow(start, step, &micros) || !timestamp_in_range(micros)) {
    return overflow(evaluator, expr);
  }
  return Datum::of_int(micros);
}

// TIMESTAMPDIFF(unit, a, b) over timestamps, as Calcite rewrites it for
// Feldera: months for YEAR .. MONTH, whole seconds for WEEK and shorter
// (MILLISECOND and MICROSECOND scale the whole seconds), truncated toward zero.
Datum timestamp_diff(Evaluator& evaluator, const Expr& expr, const Datum* arguments) {
  int64_t start = arguments[0].integer, end = arguments[1].integer;
  int64_t result;
  if (int64_t months_per_unit = months_of_unit(expr.field)) {
    result = months_between(end, start) / months_per_unit;
  } else {
    int64_t micros;
    if (__builtin_sub_overflow(end, start, &micros)) return overflow(evaluator, expr);
    switch (expr.field) {
      case TimeUnit::kMillisecond:
        result = micros / kMicrosPerSecond * 1000;
        break;
      case TimeUnit::kMicrosecond:
        result = micros / kMicrosPerSecond * kMicrosPerSecond;
        break;
      default:
        result = micros / micros_of_unit(expr.field);
        break;
    }
  }
  if (!integer_fits(TypeId::kInt, result)) {
    return evaluator.fail(ErrorCode::kOverflow, "integer overflow", expr);
  }
  return Datum::of_int(result);
}

// DATEDIFF(unit, a, b) over dates (Feldera's datediff_*: QUARTER counts
// calendar quarters past the whole years, unlike TIMESTAMPDIFF's months / 3).
Datum date_diff(Evaluator& evaluator, const Expr& expr, const Datum* arguments) {
  int32_t start = static_cast<int32_t>(arguments[0].integer), end = static_cast<int32_t>(arguments[1].integer);
  int64_t days = int64_t{end} - start;
  int64_t months = months_between(end * kMicrosPerDay, start * kMicrosPerDay);
  int64_t result = 0;
  switch (expr.field) {
    case TimeUnit::kYear:
      result = months / 12;
      break;
    case TimeUnit::kQuarter:
      result =
          months / 12 * 4 + extract_from_date(TimeUnit::kQuarter, end) - extract_from_date(TimeUnit::kQuarter, start);
      break;
    case TimeUnit::kMonth:
      result = months;
      break;
    case TimeUnit::kWeek:
      result = days / 7;
      break;
    case TimeUnit::kDay:
      result = days;
      break;
    default:
      result = days * 24;
      break;  // HOUR
  }
  if (!integer_fits(TypeId::kInt, result)) {
    return evaluator.fail(ErrorCode::kOverflow, "integer overflow", expr);
  }
  return Datum::of_int(result);
}

// The seconds argument of MAKE_TIMESTAMP in microseconds, the fraction
// truncated; none unless 0 <= seconds < 60.
std::optional<int64_t> seconds_in_micros(const SqlType& type, const Datum& value) {
  if (type.is_floating()) {
    double seconds = value.floating;
    if (!(seconds >= 0.0 && seconds < 60.0)) return std::nullopt;  // also NaN
    return static_cast<int64_t>(std::trunc(seconds * 1e6));
  }
  if (type.id == TypeId::kDecimal) {
    if (value.decimal < 0 || value.decimal / pow10_int128(type.scale) >= 60) return std::nullopt;
    int128 micros =
        type.scale <= 6 ? value.decimal * pow10_int128(6 - type.scale) : value.decimal / pow10_int128(type.scale - 6);
    if (micros >= 60 * kMicrosPerSecond) return std::nullopt;
    return static_cast<int64_t>(micros);
  }
  if (value.integer < 0 || value.integer > 59) return std::nullopt;
  return value.integer * kMicrosPerSecond;
}

Datum make_time(const Expr& expr, const Datum* arguments) {
  int64_t hour = arguments[0].integer, minute = arguments[1].integer;
  std::optional<int64_t> second = seconds_in_micros(expr.children[2]->type, arguments[2]);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || !second) return Datum::null_value();
  return Datum::of_int(hour * kMicrosPerHour + minute * kMicrosPerMinute + *second);
}

Datum make_timestamp(const Expr& expr, const Datum* arguments) {
  std::optional<int32_t> days = make_date(arguments[0].integer, arguments[1].integer, arguments[2].integer);
  int64_t hour = arguments[3].integer, minute = arguments[4].integer;
  std::optional<int64_t> second = seconds_in_micros(expr.children[5]->type, arguments[5]);
  if (!days || hour < 0 || hour > 23 || minute < 0 || minute > 59 || !second) return Datum::null_value();
  return Datum::of_int(int64_t{*days} * kMicrosPerDay + hour * kMicrosPerHour + minute * kMicrosPerMinute + *second);
}

}  // namespace

Datum call_time_function(Evaluator& evaluator, const Expr& expr, const Datum* arguments) {
  switch (expr.function) {
    case ScalarFunction::kDateTrunc:
      return truncate(expr, arguments[0]);
    case ScalarFunction::kFloorTo:
    case ScalarFunction::kCeilTo:
      return floor_or_ceil(evaluator, expr, arguments[0]);
    case ScalarFunction::kTimestampAdd:
      return timestamp_add(evaluator, expr, arguments);
    case ScalarFunction::kTimestampDiff:
      return timestamp_diff(evaluator, expr, arguments);
    case ScalarFunction::kDateDiff:
      return date_diff(evaluator, expr, arguments);
    case ScalarFunction::kMakeDate: {
      std::optional<int32_t> days = make_date(arguments[0].integer, arguments[1].integer, arguments[2].integer);
      return days ? Datum::of_int(*days) : Datum::null_value();
    }
    case ScalarFunction::kMakeTimestamp:
      return make_timestamp(expr, arguments);
    case ScalarFunction::kMakeTime:
      return make_time(expr, arguments);
    default:
      return evaluator.fail(ErrorCode::kInternal, "not a time function: " + evaluator.describe(expr));
  }
}

namespace {

// EXTRACT from intervals, Feldera's formulas (truncating division and %):
// a year-month interval's parts count months, a day-time interval's the
// microseconds (HOUR is within the day, MILLISECOND within the minute).
int64_t extract_from_interval(TimeUnit field, int64_t value, bool months) {
  if (months) {
    switch (field) {
      case TimeUnit::kMillennium:
        return value / 12 / 1000;
      case TimeUnit::kCentury:
        return value / 12 / 100;
      case TimeUnit::kDecade:
        return value / 12 / 10;
      case TimeUnit::kYear:
        return value / 12;
      case TimeUnit::kQuarter: {  // the quarter of 1970-01-01 plus the interval
        int64_t month_of_year = value % 12 < 0 ? value % 12 + 12 : value % 12;
        return month_of_year / 3 + 1;
      }
      default:
        return value % 12;  // MONTH
    }
  }
  switch (field) {
    case TimeUnit::kDay:
      return value / kMicrosPerDay;
    case TimeUnit::kHour:
      return value / kMicrosPerHour % 24;
    case TimeUnit::kMinute:
      return value / kMicrosPerMinute % 60;
    case TimeUnit::kSecond:
      return value / kMicrosPerSecond % 60;
    case TimeUnit::kMillisecond:
      return value % kMicrosPerMinute / 1000;
    case TimeUnit::kMicrosecond:
      return value % kMicrosPerMinute;
    default:
      return value / kMicrosPerSecond;  // EPOCH
  }
}

}  // namespace

Datum extract_field(const Expr& expr, const Datum& value, const SqlType& from) {
  if (from.is_interval()) {
    return Datum::of_int(extract_from_interval(expr.field, value.integer, from.id == TypeId::kIntervalYearMonth));
  }
  // A TIME is the microseconds of day 0: its fields are a timestamp's.
  if (from.id == TypeId::kTimestamp || from.id == TypeId::kTime) {
    return Datum::of_int(extract_from_timestamp(expr.field, value.integer));
  }
  return Datum::of_int(extract_from_date(expr.field, static_cast<int32_t>(value.integer)));
}

}  // namespace freshet::sql::internal
