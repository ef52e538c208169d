// Math functions and GREATEST/LEAST over non-NULL arguments, with Feldera's
// rules: POWER, SQRT, EXP, LN, LOG10 and LOG compute in DOUBLE (SQRT of a
// negative is NaN; LN, LOG10 and LOG of a negative are errors, of 0 -inf);
// SIGN and TRUNCATE keep the argument's type (TRUNCATE's DECIMAL result
// scale as ROUND's, see bind_math_functions.cpp).
#include <cmath>

#include "evaluate_internal.h"

namespace freshet::sql::internal {
namespace {

Datum logarithm(Evaluator& evaluator, const Expr& expr, const Datum* arguments) {
  double value = arguments[0].floating;
  const char* name = expr.function == ScalarFunction::kLn      ? "LN"
                     : expr.function == ScalarFunction::kLog10 ? "LOG10"
                                                               : "LOG";
  bool has_base = expr.children.size() > 1;
  if (value < 0 || (has_base && arguments[1].floating < 0)) {
    return evaluator.fail(ErrorCode::kInvalidArgument,
                          std::string(name) + " of a negative number", expr);
  }
  if (expr.function == ScalarFunction::kLog10) return Datum::of_double(std::log10(value));
  if (!has_base) return Datum::of_double(std::log(value));
  double base = arguments[1].floating;
  if (base == 0) return Datum::of_double(0);
  return Datum::of_double(std::log(value) / std::log(base));
}

Datum sign(const Expr& expr, const Datum& value) {
  if (expr.type.is_floating()) {
    double x = value.floating;
    return Datum::of_double(x > 0 ? 1.0 : x < 0 ? -1.0 : x);  // 0, -0 and NaN stay
  }
  if (expr.type.id == TypeId::kDecimal) {
    int128 one = pow10_int128(expr.type.scale);
    return Datum::of_decimal(value.decimal > 0 ? one : value.decimal < 0 ? -one : 0);
  }
  return Datum::of_int(value.integer > 0 ? 1 : value.integer < 0 ? -1 : 0);
}

double truncate_double(double value, int64_t digits) {
  if (digits > 308) return value;
  if (digits < -308) return 0.0 * value;
  if (digits >= 0) {
    double scale = std::pow(10.0, static_cast<double>(digits));
    double scaled = value * scale;
    return std::isfinite(scaled) ? std::trunc(scaled) / scale : value;
  }
  double unit = std::pow(10.0, static_cast<double>(-digits));
  return std::trunc(value / unit) * unit;
}

// DECIMAL: drop the digits after `digits` toward zero; the result type's
// scale is min(input scale, max(digits, 0)) for digits >= 0, else the input's.
Datum truncate_decimal(Evaluator& evaluator, const Expr& expr, int128 value, int64_t digits) {
  int64_t input_scale = expr.children[0]->type.scale;
  if (digits >= input_scale) return Datum::of_decimal(value);
  digits = digits < -100 ? -100 : digits;
  int64_t drop = input_scale - digits;
  if (drop > kMaxDecimalPrecision) return Datum::of_decimal(0);
  int128 unit = pow10_int128(static_cast<uint32_t>(drop));
  int128 units = value / unit;  // toward zero
  if (digits >= 0) return Datum::of_decimal(units);
  // Back at the input scale: units of 10^-digits are `unit` unscaled each; never larger than |value|.
  (void)evaluator;
  return Datum::of_decimal(units * unit);
}

Datum truncate_value(Evaluator& evaluator, const Expr& expr, const Datum* arguments) {
  int64_t digits = expr.children.size() > 1 ? arguments[1].integer : 0;
  if (expr.type.is_floating()) {
    double result = truncate_double(arguments[0].floating, digits);
    return Datum::of_double(expr.type.id == TypeId::kReal ? static_cast<float>(result) : result);
  }
  if (expr.type.id == TypeId::kDecimal) return truncate_decimal(evaluator, expr, arguments[0].decimal, digits);
  int64_t value = arguments[0].integer;
  if (digits >= 0) return Datum::of_int(value);
  if (digits <= -19) return Datum::of_int(0);  // |value| < 10^19
  int64_t unit = 1;
  for (int64_t i = 0; i < -digits; ++i) unit *= 10;
  return Datum::of_int(value / unit * unit);
}

// GREATEST / LEAST: the children share the result's type.
Datum extreme(const Expr& expr, const Datum* arguments) {
  bool greatest = expr.function == ScalarFunction::kGreatest;
  size_t best = 0;
  for (size_t i = 1; i < expr.children.size(); ++i) {
    int order = compare_values(expr.type, arguments[i], arguments[best]);
    if (greatest ? order > 0 : order < 0) best = i;
  }
  return arguments[best];
}

}  // namespace

Datum call_math_function(Evaluator& evaluator, const Expr& expr, const Datum* arguments) {
  switch (expr.function) {
    case ScalarFunction::kPower:
      return Datum::of_double(std::pow(arguments[0].floating, arguments[1].floating));
    case ScalarFunction::kSqrt:
      return Datum::of_double(std::sqrt(arguments[0].floating));
    case ScalarFunction::kExp:
      return Datum::of_double(std::exp(arguments[0].floating));
    case ScalarFunction::kLn:
    case ScalarFunction::kLog10:
    case ScalarFunction::kLog:
      return logarithm(evaluator, expr, arguments);
    case ScalarFunction::kSign:
      return sign(expr, arguments[0]);
    case ScalarFunction::kTruncate:
      return truncate_value(evaluator, expr, arguments);
    case ScalarFunction::kGreatest:
    case ScalarFunction::kLeast:
      return extreme(expr, arguments);
    default:
      break;
  }
  return evaluator.fail(ErrorCode::kInternal, "not a math function: " + evaluator.describe(expr));
}

}  // namespace freshet::sql::internal
