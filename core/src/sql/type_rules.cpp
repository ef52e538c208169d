#include "type_rules.h"

#include <algorithm>

namespace freshet::sql {
namespace {

// Digits needed for the integer types as DECIMAL.
uint8_t integer_digits(TypeId id) {
  switch (id) {
    case TypeId::kTinyInt: return 3;
    case TypeId::kSmallInt: return 5;
    case TypeId::kInt: return 10;
    default: return 19;
  }
}

int integer_rank(TypeId id) {
  switch (id) {
    case TypeId::kTinyInt: return 1;
    case TypeId::kSmallInt: return 2;
    case TypeId::kInt: return 3;
    default: return 4;
  }
}

SqlType with_nullability(SqlType type, const SqlType& a, const SqlType& b) {
  type.nullable = a.nullable || b.nullable;
  return type;
}

// The DECIMAL that holds both decimals: enough integer and fraction digits.
SqlType widen_decimals(const SqlType& a, const SqlType& b) {
  uint8_t scale = std::max(a.scale, b.scale);
  int integer_digits = std::max(a.precision - a.scale, b.precision - b.scale);
  uint8_t precision = static_cast<uint8_t>(std::min<int>(kMaxDecimalPrecision, integer_digits + scale));
  return SqlType::decimal(precision, scale);
}

}  // namespace

SqlType decimal_for_integer(const SqlType& integer) {
  return SqlType::decimal(integer_digits(integer.id), 0, integer.nullable);
}

std::optional<SqlType> common_type(const SqlType& a, const SqlType& b) {
  if (a.id == b.id) {
    SqlType type = a;
    if (a.id == TypeId::kDecimal) type = widen_decimals(a, b);
    if (a.is_interval()) type = widen_interval(a, b);
    if (a.id == TypeId::kVarchar && a.max_length != b.max_length) type.max_length = 0;
    return with_nullability(type, a, b);
  }
  if (a.is_numeric() && b.is_numeric()) {
    if (a.is_floating() || b.is_floating()) return with_nullability(SqlType::double_precision(), a, b);
    if (a.id == TypeId::kDecimal || b.id == TypeId::kDecimal) {
      SqlType da = a.id == TypeId::kDecimal ? a : decimal_for_integer(a);
      SqlType db = b.id == TypeId::kDecimal ? b : decimal_for_integer(b);
      return with_nullability(widen_decimals(da, db), a, b);
    }
    return with_nullability(integer_rank(a.id) >= integer_rank(b.id) ? a : b, a, b);
  }
  bool a_time = a.id == TypeId::kDate || a.id == TypeId::kTimestamp;
  bool b_time = b.id == TypeId::kDate || b.id == TypeId::kTimestamp;
  if (a_time && b_time) return with_nullability(SqlType::timestamp(), a, b);
  return std::nullopt;
}

std::optional<SqlType> arithmetic_type(AstOperator op, const SqlType& a, const SqlType& b) {
  if (!a.is_numeric() || !b.is_numeric()) return std::nullopt;
  std::optional<SqlType> common = common_type(a, b);
  if (!common || common->id != TypeId::kDecimal) return common;
  SqlType da = a.id == TypeId::kDecimal ? a : decimal_for_integer(a);
  SqlType db = b.id == TypeId::kDecimal ? b : decimal_for_integer(b);
  SqlType result = *common;
  switch (op) {
    case AstOperator::kAdd:
    case AstOperator::kSubtract: {
      // One more integer digit for the carry.
      result.precision = static_cast<uint8_t>(std::min<int>(kMaxDecimalPrecision, result.precision + 1));
      break;
    }
    case AstOperator::kMultiply: {
      int scale = std::min<int>(kMaxDecimalPrecision, da.scale + db.scale);
      result.scale = static_cast<uint8_t>(scale);
      result.precision = static_cast<uint8_t>(std::min<int>(kMaxDecimalPrecision, da.precision + db.precision));
      result.precision = std::max(result.precision, result.scale);
      break;
    }
    case AstOperator::kDivide: {
      // At least 6 fraction digits (as SQL Server and Calcite), and room for
      // the quotient's integer digits.
      int integer_digits = da.precision - da.scale + db.scale;
      int scale = std::max(6, da.scale + db.precision + 1);
      scale = std::min(scale, std::max(6, kMaxDecimalPrecision - integer_digits));
      result.scale = static_cast<uint8_t>(std::min<int>(scale, kMaxDecimalPrecision));
      result.precision = static_cast<uint8_t>(std::min<int>(kMaxDecimalPrecision, integer_digits + result.scale));
      result.precision = std::max(result.precision, result.scale);
      break;
    }
    default: break;
  }
  return result;
}

SqlType widen_interval(const SqlType& a, const SqlType& b) {
  SqlType type = a;
  type.precision = static_cast<uint8_t>(std::min(a.interval_start(), b.interval_start()));
  type.scale = static_cast<uint8_t>(std::max(a.interval_end(), b.interval_end()));
  type.nullable = a.nullable || b.nullable;
  return type;
}

std::optional<SqlType> temporal_arithmetic_type(AstOperator op, const SqlType& a, const SqlType& b) {
  switch (op) {
    case AstOperator::kAdd:
    case AstOperator::kSubtract:
      if (a.is_datetime() && b.is_interval()) return a;
      if (a.is_interval() && b.id == a.id) return widen_interval(a, b);
      return std::nullopt;
    case AstOperator::kMultiply:
    case AstOperator::kDivide:
      if (a.is_interval() && b.is_numeric()) return a;
      return std::nullopt;
    default: return std::nullopt;
  }
}

bool can_cast(const SqlType& from, const SqlType& to) {
  if (from.id == to.id) return true;
  if (from.id == TypeId::kVarchar || to.id == TypeId::kVarchar) return true;
  // TIME from and to TIMESTAMP; single-field intervals from exact numbers and to integers (as Feldera).
  if (from.id == TypeId::kTime || to.id == TypeId::kTime) {
    return from.id == TypeId::kTimestamp || to.id == TypeId::kTimestamp;
  }
  if (to.is_interval()) {
    return to.interval_start() == to.interval_end() && (from.is_integer() || from.id == TypeId::kDecimal);
  }
  if (from.is_interval()) return from.interval_start() == from.interval_end() && to.is_integer();
  if (from.is_numeric() && to.is_numeric()) return true;
  if ((from.id == TypeId::kBoolean && to.is_integer()) || (from.is_integer() && to.id == TypeId::kBoolean)) return true;
  bool from_time = from.id == TypeId::kDate || from.id == TypeId::kTimestamp;
  bool to_time = to.id == TypeId::kDate || to.id == TypeId::kTimestamp;
  return from_time && to_time;
}

}  // namespace freshet::sql
