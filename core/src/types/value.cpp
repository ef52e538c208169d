#include "freshet/types/value.h"

#include <cstdio>

#include "freshet/types/interval.h"
#include "freshet/types/temporal.h"

namespace freshet {

Value Value::boolean(bool value) {
  Value v(TypeId::kBoolean);
  v.null_ = false;
  v.integer_ = value ? 1 : 0;
  return v;
}

Value Value::integer(TypeId type, int64_t value) {
  Value v(type);
  v.null_ = false;
  v.integer_ = value;
  return v;
}

Value Value::floating(TypeId type, double value) {
  Value v(type);
  v.null_ = false;
  v.floating_ = value;
  return v;
}

Value Value::decimal(int128 unscaled, uint8_t scale) {
  Value v(TypeId::kDecimal);
  v.null_ = false;
  v.decimal_ = unscaled;
  v.scale_ = scale;
  return v;
}

Value Value::interval(TypeId type, int64_t value, IntervalUnit start, IntervalUnit end) {
  Value v = integer(type, value);
  v.scale_ = static_cast<uint8_t>(start);
  v.interval_end_ = static_cast<uint8_t>(end);
  return v;
}

Value Value::varchar(std::string_view value) {
  Value v(TypeId::kVarchar);
  v.null_ = false;
  v.string_ = std::string(value);
  return v;
}

std::string Value::to_string() const {
  if (null_) return "NULL";
  switch (type_) {
    case TypeId::kBoolean: return integer_ ? "TRUE" : "FALSE";
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInt:
    case TypeId::kBigInt: return std::to_string(integer_);
    case TypeId::kReal:
    case TypeId::kDouble: {
      char text[32];
      std::snprintf(text, sizeof text, "%.17g", floating_);
      return text;
    }
    case TypeId::kDecimal: return decimal_to_string(decimal_, scale_);
    case TypeId::kVarchar: {
      // As an SQL literal: a quote inside is doubled.
      std::string quoted = "'";
      for (char c : string_) quoted += c == '\'' ? std::string("''") : std::string(1, c);
      return quoted + "'";
    }
    case TypeId::kDate: return format_date(static_cast<int32_t>(integer_));
    case TypeId::kTimestamp: return format_timestamp(integer_);
    case TypeId::kTime: return format_time(integer_);
    case TypeId::kIntervalDayTime:
    case TypeId::kIntervalYearMonth: {
      SqlType type{type_};
      type.precision = scale_;
      type.scale = interval_end_;
      return format_interval(integer_, type);
    }
  }
  return "?";
}

bool operator==(const Value& a, const Value& b) {
  if (a.type_ != b.type_ || a.null_ != b.null_) return false;
  if (a.null_) return true;
  switch (a.type_) {
    case TypeId::kReal:
    case TypeId::kDouble: return a.floating_ == b.floating_;
    case TypeId::kDecimal: return a.decimal_ == b.decimal_ && a.scale_ == b.scale_;
    case TypeId::kVarchar: return a.string_ == b.string_;
    default: return a.integer_ == b.integer_;
  }
}

}  // namespace freshet
