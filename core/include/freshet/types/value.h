// Value: one SQL value of any type, owned. The slow, convenient form for
// tests, literals and formats; hot paths read and write rows directly
// (row.h) without building Values.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "freshet/types/decimal.h"
#include "freshet/types/sql_type.h"

namespace freshet {

class Value {
 public:
  //! A NULL of the given type.
  static Value null(TypeId type) { return Value(type); }
  static Value boolean(bool value);
  //! Any integer type, DATE (days) or TIMESTAMP (microseconds).
  static Value integer(TypeId type, int64_t value);
  static Value bigint(int64_t value) { return integer(TypeId::kBigInt, value); }
  static Value floating(TypeId type, double value);
  static Value double_precision(double value) { return floating(TypeId::kDouble, value); }
  static Value decimal(int128 unscaled, uint8_t scale);
  static Value varchar(std::string_view value);
  static Value date(int32_t days) { return integer(TypeId::kDate, days); }
  static Value timestamp(int64_t micros) { return integer(TypeId::kTimestamp, micros); }
  static Value time(int64_t micros) { return integer(TypeId::kTime, micros); }
  //! An interval (microseconds or months) and the qualifier it renders with.
  static Value interval(TypeId type, int64_t value, IntervalUnit start, IntervalUnit end);

  TypeId type() const { return type_; }
  bool is_null() const { return null_; }
  bool as_bool() const { return integer_ != 0; }
  int64_t as_int() const { return integer_; }
  double as_double() const { return floating_; }
  int128 as_decimal() const { return decimal_; }
  uint8_t decimal_scale() const { return scale_; }
  const std::string& as_string() const { return string_; }

  //! A readable rendering: NULL, 42, 1.5, 12.50, 'text', 2024-01-02, 10:30:00,
  //! and intervals as CAST(... AS VARCHAR) gives them (+1 02:00:00, +1-02).
  std::string to_string() const;

  friend bool operator==(const Value& a, const Value& b);
  friend bool operator!=(const Value& a, const Value& b) { return !(a == b); }

 private:
  explicit Value(TypeId type) : type_(type), null_(true) {}

  TypeId type_;
  bool null_ = false;
  uint8_t scale_ = 0;  //!< DECIMAL's scale; an interval's first field
  uint8_t interval_end_ = 0;  //!< an interval's last field
  int64_t integer_ = 0;
  double floating_ = 0;
  int128 decimal_ = 0;
  std::string string_;
};

}  // namespace freshet
