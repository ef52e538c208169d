#include "window_frame_text.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "freshet/types/decimal.h"
#include "freshet/types/interval.h"
#include "freshet/types/sql_type.h"

namespace freshet::window_detail {
namespace {

using BoundKind = WindowBound::Kind;

// The fewest digits that read back as `value`.
std::string shortest(double value) {
  char text[32];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  return text;
}

// Microseconds in the largest unit that counts them whole ("INTERVAL '90'
// MINUTE"), else in seconds with their fraction.
std::string interval_text(int64_t micros) {
  static constexpr std::pair<IntervalUnit, const char*> kUnits[] = {
      {IntervalUnit::kDay, "DAY"},
      {IntervalUnit::kHour, "HOUR"},
      {IntervalUnit::kMinute, "MINUTE"},
      {IntervalUnit::kSecond, "SECOND"}};
  for (const auto& [unit, name] : kUnits) {
    if (micros % interval_unit_size(unit) == 0) {
      return "INTERVAL '" + std::to_string(micros / interval_unit_size(unit)) + "' " + name;
    }
  }
  return "INTERVAL '" + decimal_to_string(micros, 6) + "' SECOND";
}

// A RANGE offset in the ORDER BY column's terms (window.h: WindowBound).
std::string range_offset(const WindowBound& bound, const SqlType* order_type) {
  if (!order_type) return std::to_string(static_cast<int64_t>(bound.exact));
  switch (order_type->id) {
    case TypeId::kReal:
    case TypeId::kDouble:
      return shortest(bound.floating);
    case TypeId::kDecimal:
      return decimal_to_string(bound.exact, order_type->scale);
    case TypeId::kDate:
      return "INTERVAL '" + std::to_string(static_cast<int64_t>(bound.exact)) + "' DAY";
    case TypeId::kTimestamp:
    case TypeId::kTime:
      return interval_text(static_cast<int64_t>(bound.exact));
    default:
      return std::to_string(static_cast<int64_t>(bound.exact));
  }
}

std::string bound_text(const WindowBound& bound, bool rows, const SqlType* order_type) {
  switch (bound.kind) {
    case BoundKind::kUnboundedPreceding:
      return "UNBOUNDED PRECEDING";
    case BoundKind::kCurrentRow:
      return "CURRENT ROW";
    case BoundKind::kUnboundedFollowing:
      return "UNBOUNDED FOLLOWING";
    case BoundKind::kPreceding:
    case BoundKind::kFollowing:
      break;
  }
  std::string offset = rows ? std::to_string(bound.rows) : range_offset(bound, order_type);
  return offset + (bound.kind == BoundKind::kPreceding ? " PRECEDING" : " FOLLOWING");
}

}  // namespace

std::string frame_text(const WindowFunction& function, bool ordered, const SqlType* order_type) {
  if (!reads_frame(function.kind) || has_default_frame(function, ordered)) return "";
  return std::string(" (") + (function.rows_frame ? "ROWS" : "RANGE") + " BETWEEN " +
         bound_text(function.start, function.rows_frame, order_type) + " AND " +
         bound_text(function.end, function.rows_frame, order_type) + ")";
}

}  // namespace freshet::window_detail
