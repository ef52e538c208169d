// SQL types as the core sees them: a type id plus the parameters that matter
// for storage and arithmetic (nullability, DECIMAL precision and scale,
// VARCHAR length).
#pragma once

#include <cstdint>
#include <string>

namespace freshet {

enum class TypeId : uint8_t {
  kBoolean,
  kTinyInt,    //!< 8-bit signed
  kSmallInt,   //!< 16-bit signed
  kInt,        //!< 32-bit signed
  kBigInt,     //!< 64-bit signed
  kReal,       //!< 32-bit IEEE float
  kDouble,     //!< 64-bit IEEE float
  kDecimal,    //!< exact: a 128-bit unscaled integer and the type's scale, precision <= 38
  kVarchar,    //!< UTF-8 bytes
  kDate,       //!< days since 1970-01-01
  kTimestamp,  //!< microseconds since 1970-01-01 00:00:00 (no time zone)
  kTime,               //!< microseconds since midnight, 0 <= t < 86'400'000'000
  kIntervalDayTime,    //!< a "short" interval (DAY .. SECOND): signed microseconds
  kIntervalYearMonth,  //!< a "long" interval (YEAR .. MONTH): signed months
};

//! The fields of an interval qualifier (`HOUR TO MINUTE`). kNone only in a
//! default-constructed SqlType, which reads as the widest qualifier.
enum class IntervalUnit : uint8_t { kNone, kYear, kMonth, kDay, kHour, kMinute, kSecond };

//! The widest precision a DECIMAL may have: 38 digits fit in 128 bits.
inline constexpr uint8_t kMaxDecimalPrecision = 38;

struct SqlType {
  TypeId id = TypeId::kBigInt;
  bool nullable = true;
  uint8_t precision = 0;    //!< DECIMAL; intervals: the qualifier's first field (an IntervalUnit)
  uint8_t scale = 0;        //!< DECIMAL; intervals: the qualifier's last field (== first for one field)
  uint32_t max_length = 0;  //!< VARCHAR(n); 0 means unbounded

  static SqlType boolean(bool nullable = true) { return {TypeId::kBoolean, nullable}; }
  static SqlType tinyint(bool nullable = true) { return {TypeId::kTinyInt, nullable}; }
  static SqlType smallint(bool nullable = true) { return {TypeId::kSmallInt, nullable}; }
  static SqlType integer(bool nullable = true) { return {TypeId::kInt, nullable}; }
  static SqlType bigint(bool nullable = true) { return {TypeId::kBigInt, nullable}; }
  static SqlType real(bool nullable = true) { return {TypeId::kReal, nullable}; }
  static SqlType double_precision(bool nullable = true) { return {TypeId::kDouble, nullable}; }
  static SqlType decimal(uint8_t precision, uint8_t scale, bool nullable = true) {
    return {TypeId::kDecimal, nullable, precision, scale};
  }
  static SqlType varchar(bool nullable = true, uint32_t max_length = 0) {
    return {TypeId::kVarchar, nullable, 0, 0, max_length};
  }
  static SqlType date(bool nullable = true) { return {TypeId::kDate, nullable}; }
  static SqlType timestamp(bool nullable = true) { return {TypeId::kTimestamp, nullable}; }
  static SqlType time(bool nullable = true) { return {TypeId::kTime, nullable}; }
  //! INTERVAL start [TO end] over DAY .. SECOND (by default DAY TO SECOND).
  static SqlType interval_day_time(IntervalUnit start = IntervalUnit::kDay, IntervalUnit end = IntervalUnit::kSecond,
                                   bool nullable = true) {
    return {TypeId::kIntervalDayTime, nullable, static_cast<uint8_t>(start), static_cast<uint8_t>(end)};
  }
  //! INTERVAL start [TO end] over YEAR .. MONTH (by default YEAR TO MONTH).
  static SqlType interval_year_month(IntervalUnit start = IntervalUnit::kYear, IntervalUnit end = IntervalUnit::kMonth,
                                     bool nullable = true) {
    return {TypeId::kIntervalYearMonth, nullable, static_cast<uint8_t>(start), static_cast<uint8_t>(end)};
  }

  SqlType with_nullable(bool value) const {
    SqlType copy = *this;
    copy.nullable = value;
    return copy;
  }

  bool is_integer() const {
    return id == TypeId::kTinyInt || id == TypeId::kSmallInt || id == TypeId::kInt ||
           id == TypeId::kBigInt;
  }
  bool is_floating() const { return id == TypeId::kReal || id == TypeId::kDouble; }
  bool is_numeric() const { return is_integer() || is_floating() || id == TypeId::kDecimal; }
  bool is_interval() const { return id == TypeId::kIntervalDayTime || id == TypeId::kIntervalYearMonth; }
  //! DATE, TIMESTAMP or TIME.
  bool is_datetime() const { return id == TypeId::kDate || id == TypeId::kTimestamp || id == TypeId::kTime; }
  //! An interval's first and last field; a default-constructed interval type
  //! reads as DAY TO SECOND or YEAR TO MONTH.
  IntervalUnit interval_start() const;
  IntervalUnit interval_end() const;

  //! "BIGINT NOT NULL", "DECIMAL(10, 2)", "VARCHAR(20)", "INTERVAL HOUR TO MINUTE"
  std::string to_string() const;

  friend bool operator==(const SqlType& a, const SqlType& b) {
    return a.id == b.id && a.nullable == b.nullable && a.precision == b.precision &&
           a.scale == b.scale && a.max_length == b.max_length;
  }
};

//! Bytes a value of this type takes in a row's fixed part (VARCHAR: its length).
uint32_t fixed_width(TypeId id);

//! The SQL name of a type id ("BIGINT", "INTERVAL").
const char* type_name(TypeId id);

//! "YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND".
const char* interval_unit_name(IntervalUnit unit);

}  // namespace freshet
