// Scalar functions and LIKE over non-NULL arguments (the time functions and
// EXTRACT are in evaluate_time_functions.cpp).
//
// Strings are UTF-8; CHAR_LENGTH, SUBSTRING and LIKE's '_' count code points
// (a code point starts at every byte that is not 10xxxxxx). LOWER and UPPER
// map all of Unicode as Rust's str::to_lowercase / to_uppercase. String
// results are views into an argument (SUBSTRING) or scratch buffers.
#include <cmath>
#include <limits>

#include "evaluate_internal.h"
#include "freshet/common/unicode.h"

namespace freshet::sql::internal {

namespace {

bool starts_code_point(char byte) { return (static_cast<unsigned char>(byte) & 0xC0) != 0x80; }

// Bytes of the code point that starts at text[i] (at least 1, never past the end).
size_t code_point_size(std::string_view text, size_t i) {
  size_t end = i + 1;
  while (end < text.size() && !starts_code_point(text[end])) ++end;
  return end - i;
}

// Byte offset of the code point with 0-based index `index` (text.size() past the end).
size_t code_point_offset(std::string_view text, int64_t index) {
  size_t i = 0;
  for (int64_t seen = 0; i < text.size(); ++i) {
    if (starts_code_point(text[i]) && seen++ == index) break;
  }
  return i;
}

Datum integer_overflow(Evaluator& evaluator, const Expr& expr) {
  return evaluator.fail(ErrorCode::kOverflow, "integer overflow", expr);
}

Datum absolute(Evaluator& evaluator, const Expr& expr, const Datum& value) {
  if (expr.type.is_floating()) return Datum::of_double(std::fabs(value.floating));
  if (expr.type.id == TypeId::kDecimal) return Datum::of_decimal(value.decimal < 0 ? -value.decimal : value.decimal);
  if (value.integer >= 0) return value;
  int64_t result;
  if (__builtin_sub_overflow(int64_t{0}, value.integer, &result) || !integer_fits(expr.type.id, result)) {
    return integer_overflow(evaluator, expr);
  }
  return Datum::of_int(result);
}

// x rounded half away from zero at `digits` decimal digits (negative: tens, hundreds...).
double round_double(double value, int64_t digits) {
  if (digits > 308) return value;
  if (digits < -308) return 0.0 * value;
  if (digits >= 0) {
    double scale = std::pow(10.0, static_cast<double>(digits));
    double scaled = value * scale;
    return std::isfinite(scaled) ? std::round(scaled) / scale : value;
  }
  double unit = std::pow(10.0, static_cast<double>(-digits));
  return std::round(value / unit) * unit;
}

Datum round_integer(Evaluator& evaluator, const Expr& expr, int64_t value, int64_t digits) {
  if (digits >= 0) return Datum::of_int(value);
  // |value| < 9.3e18 < 10^19 / 2: rounding at 19 or more digits gives 0.
  if (digits <= -19) return Datum::of_int(0);
  int64_t unit = 1;
  for (int64_t i = 0; i < -digits; ++i) unit *= 10;
  int64_t quotient = value / unit;
  int64_t remainder = value % unit;
  if (remainder < 0) remainder = -remainder;
  if (remainder >= unit - remainder) quotient += value < 0 ? -1 : 1;
  int64_t result;
  if (__builtin_mul_overflow(quotient, unit, &result) || !integer_fits(expr.type.id, result)) {
    return integer_overflow(evaluator, expr);
  }
  return Datum::of_int(result);
}

// DECIMAL: round at `digits`, then express at the result type's scale
// (never larger than the input's).
Datum round_decimal(Evaluator& evaluator, const Expr& expr, int128 value, int64_t digits) {
  // Beyond ±100 digits every DECIMAL rounds the same (unchanged, or 0); clamping avoids overflow below.
  digits = digits > 100 ? 100 : (digits < -100 ? -100 : digits);
  int input_scale = expr.children[0]->type.scale;
  int result_scale = expr.type.scale;
  int128 result = value;
  bool ok = true;
  if (digits < input_scale) {
    // Drop input_scale - digits digits (0 when more than 38: |value| < 10^38).
    int64_t drop = input_scale - digits;
    int128 rounded = drop > kMaxDecimalPrecision ? 0 : rescale_decimal(value, static_cast<uint8_t>(drop), 0);
    // `rounded` counts units of 10^-digits.
    if (digits >= 0) {
      ok = rescale_checked(rounded, static_cast<int>(digits), result_scale, &result);
    } else {
      int128 whole;
      ok = rescale_checked(rounded, 0, static_cast<int>(-digits), &whole) &&
           rescale_checked(whole, 0, result_scale, &result);
    }
  } else {
    ok = rescale_checked(value, input_scale, result_scale, &result);
  }
  uint8_t precision = expr.type.precision == 0 ? kMaxDecimalPrecision : expr.type.precision;
  if (!ok || !decimal_fits(result, precision)) {
    return evaluator.fail(ErrorCode::kOverflow, "decimal overflow", expr);
  }
  return Datum::of_decimal(result);
}

Datum round_value(Evaluator& evaluator, const Expr& expr, const Datum* arguments) {
  int64_t digits = expr.children.size() > 1 ? arguments[1].integer : 0;
  if (expr.type.is_floating()) {
    double result = round_double(arguments[0].floating, digits);
    return Datum::of_double(expr.type.id == TypeId::kReal ? static_cast<float>(result) : result);
  }
  if (expr.type.id == TypeId::kDecimal) return round_decimal(evaluator, expr, arguments[0].decimal, digits);
  return round_integer(evaluator, expr, arguments[0].integer, digits);
}

// FLOOR(x) / CEIL(x): integers are whole already; DECIMAL goes to scale 0.
Datum floor_or_ceil(const Expr& expr, const Datum& value) {
  bool floor = expr.function == ScalarFunction::kFloor;
  if (expr.type.is_floating()) {
    double result = floor ? std::floor(value.floating) : std::ceil(value.floating);
    return Datum::of_double(expr.type.id == TypeId::kReal ? static_cast<float>(result) : result);
  }
  if (expr.type.id != TypeId::kDecimal) return value;
  int128 unit = pow10_int128(expr.children[0]->type.scale);
  int128 quotient = value.decimal / unit, remainder = value.decimal % unit;
  if (floor && remainder < 0) --quotient;
  if (!floor && remainder > 0) ++quotient;
  return Datum::of_decimal(quotient);
}

// Rust's str::to_uppercase / to_lowercase, as Feldera: full Unicode case
// mapping ('ß' -> "SS", final sigma).
Datum change_case(Evaluator& evaluator, std::string_view text, bool upper) {
  std::string* buffer = evaluator.scratch();
  if (upper) {
    unicode::append_upper(text, *buffer);
  } else {
    unicode::append_lower(text, *buffer);
  }
  return Datum::of_string(*buffer);
}

Datum char_length(std::string_view text) {
  int64_t count = 0;
  for (char c : text) count += starts_code_point(c) ? 1 : 0;
  return Datum::of_int(count);
}

// SQL SUBSTRING(s FROM start [FOR length]): the code points at positions
// [start, start + length) that exist (1-based). Positions before 1 count
// against the length: SUBSTRING('abcdef', 0, 3) = 'ab'.
Datum substring(Evaluator& evaluator, const Expr& expr, const Datum* arguments) {
  std::string_view text = arguments[0].string;
  int64_t start = arguments[1].integer;
  int64_t end = std::numeric_limits<int64_t>::max();  // exclusive position
  if (expr.children.size() > 2) {
    int64_t length = arguments[2].integer;
    if (length < 0) return evaluator.fail(ErrorCode::kInvalidArgument, "negative substring length not allowed", expr);
    if (__builtin_add_overflow(start, length, &end)) end = std::numeric_limits<int64_t>::max();
  }
  int64_t first = start < 1 ? 1 : start;
  if (end <= first) return Datum::of_string(text.substr(0, 0));
  size_t begin_byte = code_point_offset(text, first - 1);
  std::string_view rest = text.substr(begin_byte);
  return Datum::of_string(rest.substr(0, code_point_offset(rest, end - first)));
}

Datum concat(Evaluator& evaluator, std::string_view left, std::string_view right) {
  if (left.empty()) return Datum::of_string(right);
  if (right.empty()) return Datum::of_string(left);
  std::string* buffer = evaluator.scratch();
  buffer->reserve(left.size() + right.size());
  buffer->append(left).append(right);
  return Datum::of_string(*buffer);
}

}  // namespace

Datum call_function(Evaluator& evaluator, const Expr& expr, const Datum* arguments) {
  switch (expr.function) {
    case ScalarFunction::kAbs: return absolute(evaluator, expr, arguments[0]);
    case ScalarFunction::kRound: return round_value(evaluator, expr, arguments);
    case ScalarFunction::kLower: return change_case(evaluator, arguments[0].string, false);
    case ScalarFunction::kUpper: return change_case(evaluator, arguments[0].string, true);
    case ScalarFunction::kCharLength: return char_length(arguments[0].string);
    case ScalarFunction::kSubstring: return substring(evaluator, expr, arguments);
    case ScalarFunction::kConcat: return concat(evaluator, arguments[0].string, arguments[1].string);
    case ScalarFunction::kFloor:
    case ScalarFunction::kCeil: return floor_or_ceil(expr, arguments[0]);
    case ScalarFunction::kDateTrunc:
    case ScalarFunction::kFloorTo:
    case ScalarFunction::kCeilTo:
    case ScalarFunction::kTimestampAdd:
    case ScalarFunction::kTimestampDiff:
    case ScalarFunction::kDateDiff:
    case ScalarFunction::kMakeDate:
    case ScalarFunction::kMakeTimestamp:
    case ScalarFunction::kMakeTime: return call_time_function(evaluator, expr, arguments);
    case ScalarFunction::kPower:
    case ScalarFunction::kSqrt:
    case ScalarFunction::kExp:
    case ScalarFunction::kLn:
    case ScalarFunction::kLog10:
    case ScalarFunction::kLog:
    case ScalarFunction::kSign:
    case ScalarFunction::kTruncate:
    case ScalarFunction::kGreatest:
    case ScalarFunction::kLeast: return call_math_function(evaluator, expr, arguments);
    case ScalarFunction::kConcatAll:
    case ScalarFunction::kConcatWs:
    case ScalarFunction::kTrimBoth:
    case ScalarFunction::kTrimLeading:
    case ScalarFunction::kTrimTrailing:
    case ScalarFunction::kPosition:
    case ScalarFunction::kReplace:
    case ScalarFunction::kLeft:
    case ScalarFunction::kRight:
    case ScalarFunction::kRepeat:
    case ScalarFunction::kReverse:
    case ScalarFunction::kInitcap:
    case ScalarFunction::kSplitPart:
    case ScalarFunction::kMd5:
    case ScalarFunction::kRlike:
    case ScalarFunction::kRegexpReplace: return call_string_function(evaluator, expr, arguments);
    case ScalarFunction::kScalarSubquery:
      if (arguments[0].integer > 1) return evaluator.fail(ErrorCode::kInvalidArgument, expr.literal_text);
      return Datum::of_bool(true);
  }
  return evaluator.fail(ErrorCode::kInternal, "unknown function", expr);
}

// Greedy matching with one backtrack point (the last '%' seen): a later '%'
// can absorb anything an earlier one could, so earlier ones never need
// revisiting. O(|text| * |pattern|) in the worst case, never exponential.
// Literal characters compare byte by byte; '_' and the backtrack step move
// by whole code points, so matches stay on code point boundaries. With an
// escape character, it and the character after it (_, % or itself) are one
// literal; anything else after it makes the pattern invalid.
LikeMatch like_matches(std::string_view text, std::string_view pattern, std::string_view escape) {
  constexpr size_t kNone = std::string_view::npos;
  auto escaped_at = [&](size_t p) { return !escape.empty() && pattern.compare(p, escape.size(), escape) == 0; };
  // Bytes of the literal an escape at p stands for (it starts after the escape); 0: none valid.
  auto escaped_size = [&](size_t p) -> size_t {
    size_t at = p + escape.size();
    if (at < pattern.size() && (pattern[at] == '_' || pattern[at] == '%')) return 1;
    return pattern.compare(at, escape.size(), escape) == 0 ? escape.size() : 0;
  };
  for (size_t p = 0; !escape.empty() && p < pattern.size();) {
    if (!escaped_at(p)) {
      ++p;
    } else if (size_t size = escaped_size(p)) {
      p += escape.size() + size;
    } else {
      return LikeMatch::kBadEscape;
    }
  }
  size_t t = 0, p = 0;
  size_t star_pattern = kNone, star_text = 0;
  while (t < text.size()) {
    if (p < pattern.size() && escaped_at(p)) {
      size_t size = escaped_size(p);
      if (text.compare(t, size, pattern.substr(p + escape.size(), size)) == 0) {
        t += size;
        p += escape.size() + size;
        continue;
      }
    } else if (p < pattern.size() && pattern[p] == '%') {
      star_pattern = ++p;
      star_text = t;
      continue;
    } else if (p < pattern.size() && pattern[p] == '_') {
      t += code_point_size(text, t);
      ++p;
      continue;
    } else if (p < pattern.size() && pattern[p] == text[t]) {
      ++t;
      ++p;
      continue;
    }
    if (star_pattern == kNone) return LikeMatch::kNo;
    star_text += code_point_size(text, star_text);
    t = star_text;
    p = star_pattern;
  }
  while (p < pattern.size() && pattern[p] == '%') ++p;
  return p == pattern.size() ? LikeMatch::kYes : LikeMatch::kNo;
}

}  // namespace freshet::sql::internal
