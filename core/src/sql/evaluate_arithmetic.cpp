// Arithmetic and comparisons over non-NULL operands.
//
// - Integers: operands already have the result type. We compute in 64 bits
//   with overflow detection, then range-check the narrower result types, so
//   TINYINT 100 + 100 fails like BIGINT overflow does. Division truncates
//   toward zero; the sign of % follows the dividend.
// - REAL/DOUBLE: IEEE, except that dividing by zero is an error (as in
//   Feldera), not an infinity. REAL results are rounded to float.
// - DECIMAL: exact on 128-bit unscaled values. + - % operands share the
//   result's scale; * and / operands keep their own scales and the result is
//   rounded half away from zero to the result's scale. Every result must fit
//   the result's precision.
// Errors: "integer overflow in <expr>" / "decimal overflow in <expr>"
// (kOverflow), "division by zero" (kInvalidArgument).
#include <cmath>
#include <limits>

#include "evaluate_internal.h"

namespace freshet::sql::internal {

namespace {

constexpr const char* kDivisionByZero = "division by zero";

Datum integer_overflow(Evaluator& evaluator, const Expr& expr) {
  return evaluator.fail(ErrorCode::kOverflow, "integer overflow", expr);
}

Datum decimal_overflow(Evaluator& evaluator, const Expr& expr) {
  return evaluator.fail(ErrorCode::kOverflow, "decimal overflow", expr);
}

int128 abs128(int128 value) { return value < 0 ? -value : value; }

// Precision 0 means "not given": the widest.
uint8_t precision_of(const SqlType& type) { return type.precision == 0 ? kMaxDecimalPrecision : type.precision; }

Datum integer_arithmetic(Evaluator& evaluator, const Expr& expr, int64_t a, int64_t b) {
  int64_t result = 0;
  bool overflow = false;
  switch (expr.op) {
    case AstOperator::kAdd: overflow = __builtin_add_overflow(a, b, &result); break;
    case AstOperator::kSubtract: overflow = __builtin_sub_overflow(a, b, &result); break;
    case AstOperator::kMultiply: overflow = __builtin_mul_overflow(a, b, &result); break;
    case AstOperator::kDivide:
      if (b == 0) return evaluator.fail(ErrorCode::kInvalidArgument, kDivisionByZero, expr);
      overflow = a == std::numeric_limits<int64_t>::min() && b == -1;
      if (!overflow) result = a / b;
      break;
    case AstOperator::kModulo:
      if (b == 0) return evaluator.fail(ErrorCode::kInvalidArgument, kDivisionByZero, expr);
      result = b == -1 ? 0 : a % b;  // INT64_MIN % -1 is undefined in C++; mathematically 0
      break;
    default: return evaluator.fail(ErrorCode::kInternal, "bad arithmetic operator", expr);
  }
  if (overflow || !integer_fits(expr.type.id, result)) return integer_overflow(evaluator, expr);
  return Datum::of_int(result);
}

Datum floating_arithmetic(Evaluator& evaluator, const Expr& expr, double a, double b) {
  double result = 0;
  switch (expr.op) {
    case AstOperator::kAdd: result = a + b; break;
    case AstOperator::kSubtract: result = a - b; break;
    case AstOperator::kMultiply: result = a * b; break;
    case AstOperator::kDivide:
      if (b == 0) return evaluator.fail(ErrorCode::kInvalidArgument, kDivisionByZero, expr);
      result = a / b;
      break;
    case AstOperator::kModulo:
      if (b == 0) return evaluator.fail(ErrorCode::kInvalidArgument, kDivisionByZero, expr);
      result = std::fmod(a, b);
      break;
    default: return evaluator.fail(ErrorCode::kInternal, "bad arithmetic operator", expr);
  }
  if (expr.type.id == TypeId::kReal) result = static_cast<float>(result);
  return Datum::of_double(result);
}

// round(numerator / denominator) half away from zero; denominator != 0.
int128 divide_rounding(int128 numerator, int128 denominator) {
  int128 quotient = numerator / denominator;
  int128 remainder = abs128(numerator % denominator);
  // 2 * remainder >= |denominator|, written so that it cannot overflow.
  if (remainder >= abs128(denominator) - remainder) quotient += (numerator < 0) != (denominator < 0) ? -1 : 1;
  return quotient;
}

// a / b for DECIMAL: a has scale s1, b scale s2, the result scale rs:
// result = a * 10^(rs - s1 + s2) / b. With a negative exponent we divide
// first (truncating) and then drop the extra digits with one rounding; that
// is exact because the truncated fraction cannot turn a below-half digit
// string into a half.
bool decimal_divide(int128 a, int s1, int128 b, int s2, int rs, int128* out) {
  int exponent = rs - s1 + s2;
  if (exponent >= 0) {
    int128 numerator;
    if (!rescale_checked(a, 0, exponent, &numerator)) return false;
    *out = divide_rounding(numerator, b);
    return true;
  }
  *out = rescale_decimal(a / b, static_cast<uint8_t>(-exponent), 0);
  return true;
}

Datum decimal_arithmetic(Evaluator& evaluator, const Expr& expr, int128 a, int128 b) {
  int128 result = 0;
  bool overflow = false;
  int s1 = expr.children[0]->type.scale;
  int s2 = expr.children[1]->type.scale;
  int rs = expr.type.scale;
  switch (expr.op) {
    case AstOperator::kAdd: overflow = __builtin_add_overflow(a, b, &result); break;
    case AstOperator::kSubtract: overflow = __builtin_sub_overflow(a, b, &result); break;
    case AstOperator::kMultiply: {
      int128 product;
      overflow = __builtin_mul_overflow(a, b, &product) || !rescale_checked(product, s1 + s2, rs, &result);
      break;
    }
    case AstOperator::kDivide:
      if (b == 0) return evaluator.fail(ErrorCode::kInvalidArgument, kDivisionByZero, expr);
      overflow = !decimal_divide(a, s1, b, s2, rs, &result);
      break;
    case AstOperator::kModulo:
      if (b == 0) return evaluator.fail(ErrorCode::kInvalidArgument, kDivisionByZero, expr);
      result = a % b;  // |a| < 10^38, so never the undefined INT128_MIN % -1
      break;
    default: return evaluator.fail(ErrorCode::kInternal, "bad arithmetic operator", expr);
  }
  if (overflow || !decimal_fits(result, precision_of(expr.type))) return decimal_overflow(evaluator, expr);
  return Datum::of_decimal(result);
}

template <typename T>
int three_way(T a, T b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

}  // namespace

bool integer_fits(TypeId id, int64_t value) {
  switch (id) {
    case TypeId::kTinyInt: return value >= -128 && value <= 127;
    case TypeId::kSmallInt: return value >= -32768 && value <= 32767;
    case TypeId::kInt:
      return value >= std::numeric_limits<int32_t>::min() && value <= std::numeric_limits<int32_t>::max();
    default: return true;
  }
}

bool rescale_checked(int128 unscaled, int from_scale, int to_scale, int128* out) {
  if (to_scale < from_scale) {
    // |unscaled| < 2^127 < 5 * 10^38: dropping more than 38 digits leaves 0.
    int drop = from_scale - to_scale;
    *out = drop > kMaxDecimalPrecision ? 0 : rescale_decimal(unscaled, static_cast<uint8_t>(drop), 0);
    return true;
  }
  int grow = to_scale - from_scale;
  if (unscaled == 0) {
    *out = 0;
    return true;
  }
  if (grow > kMaxDecimalPrecision) return false;
  return !__builtin_mul_overflow(unscaled, pow10_int128(static_cast<uint32_t>(grow)), out);
}

Datum negate(Evaluator& evaluator, const Expr& expr, const Datum& value) {
  const SqlType& type = expr.type;
  if (type.is_floating()) return Datum::of_double(-value.floating);
  if (type.id == TypeId::kDecimal) return Datum::of_decimal(-value.decimal);
  int64_t result;
  if (__builtin_sub_overflow(int64_t{0}, value.integer, &result) || !integer_fits(type.id, result)) {
    if (type.is_interval()) return evaluator.fail(ErrorCode::kOverflow, "interval overflow", expr);
    return integer_overflow(evaluator, expr);
  }
  return Datum::of_int(result);
}

Datum arithmetic(Evaluator& evaluator, const Expr& expr, const Datum& left, const Datum& right) {
  if (is_temporal_arithmetic(expr)) return temporal_arithmetic(evaluator, expr, left, right);
  if (expr.type.is_floating()) return floating_arithmetic(evaluator, expr, left.floating, right.floating);
  if (expr.type.id == TypeId::kDecimal) return decimal_arithmetic(evaluator, expr, left.decimal, right.decimal);
  return integer_arithmetic(evaluator, expr, left.integer, right.integer);
}

int compare_values(const SqlType& type, const Datum& left, const Datum& right) {
  switch (type.id) {
    case TypeId::kReal:
    case TypeId::kDouble: {
      // NaN equals itself and sorts above every number (as PostgreSQL).
      bool left_nan = std::isnan(left.floating), right_nan = std::isnan(right.floating);
      if (left_nan || right_nan) return three_way(left_nan, right_nan);
      return three_way(left.floating, right.floating);
    }
    case TypeId::kDecimal: return three_way(left.decimal, right.decimal);
    case TypeId::kVarchar: {
      int order = left.string.compare(right.string);  // bytes: binary collation
      return order < 0 ? -1 : (order > 0 ? 1 : 0);
    }
    default: return three_way(left.integer, right.integer);  // booleans: false (0) < true (1)
  }
}

bool comparison_holds(AstOperator op, int order) {
  switch (op) {
    case AstOperator::kEqual: return order == 0;
    case AstOperator::kNotEqual: return order != 0;
    case AstOperator::kLess: return order < 0;
    case AstOperator::kLessEqual: return order <= 0;
    case AstOperator::kGreater: return order > 0;
    case AstOperator::kGreaterEqual: return order >= 0;
    default: return false;
  }
}

}  // namespace freshet::sql::internal
