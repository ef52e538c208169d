#include "freshet/types/sql_type.h"

namespace freshet {

uint32_t fixed_width(TypeId id) {
  switch (id) {
    case TypeId::kBoolean:
    case TypeId::kTinyInt: return 1;
    case TypeId::kSmallInt: return 2;
    case TypeId::kInt:
    case TypeId::kReal:
    case TypeId::kDate:
    case TypeId::kVarchar: return 4;
    case TypeId::kBigInt:
    case TypeId::kDouble:
    case TypeId::kTimestamp:
    case TypeId::kTime:
    case TypeId::kIntervalDayTime:
    case TypeId::kIntervalYearMonth: return 8;
    case TypeId::kDecimal: return 16;
  }
  return 8;
}

const char* type_name(TypeId id) {
  switch (id) {
    case TypeId::kBoolean: return "BOOLEAN";
    case TypeId::kTinyInt: return "TINYINT";
    case TypeId::kSmallInt: return "SMALLINT";
    case TypeId::kInt: return "INTEGER";
    case TypeId::kBigInt: return "BIGINT";
    case TypeId::kReal: return "REAL";
    case TypeId::kDouble: return "DOUBLE";
    case TypeId::kDecimal: return "DECIMAL";
    case TypeId::kVarchar: return "VARCHAR";
    case TypeId::kDate: return "DATE";
    case TypeId::kTimestamp: return "TIMESTAMP";
    case TypeId::kTime: return "TIME";
    case TypeId::kIntervalDayTime:
    case TypeId::kIntervalYearMonth: return "INTERVAL";
  }
  return "UNKNOWN";
}

const char* interval_unit_name(IntervalUnit unit) {
  switch (unit) {
    case IntervalUnit::kNone: break;
    case IntervalUnit::kYear: return "YEAR";
    case IntervalUnit::kMonth: return "MONTH";
    case IntervalUnit::kDay: return "DAY";
    case IntervalUnit::kHour: return "HOUR";
    case IntervalUnit::kMinute: return "MINUTE";
    case IntervalUnit::kSecond: return "SECOND";
  }
  return "?";
}

IntervalUnit SqlType::interval_start() const {
  if (precision != 0) return static_cast<IntervalUnit>(precision);
  return id == TypeId::kIntervalYearMonth ? IntervalUnit::kYear : IntervalUnit::kDay;
}

IntervalUnit SqlType::interval_end() const {
  if (scale != 0) return static_cast<IntervalUnit>(scale);
  if (precision != 0) return static_cast<IntervalUnit>(precision);
  return id == TypeId::kIntervalYearMonth ? IntervalUnit::kMonth : IntervalUnit::kSecond;
}

std::string SqlType::to_string() const {
  std::string text = type_name(id);
  if (is_interval()) {
    text += std::string(" ") + interval_unit_name(interval_start());
    if (interval_end() != interval_start()) text += std::string(" TO ") + interval_unit_name(interval_end());
  } else if (id == TypeId::kDecimal) {
    text += "(" + std::to_string(precision) + ", " + std::to_string(scale) + ")";
  } else if (id == TypeId::kVarchar && max_length != 0) {
    text += "(" + std::to_string(max_length) + ")";
  }
  if (!nullable) text += " NOT NULL";
  return text;
}

}  // namespace freshet
