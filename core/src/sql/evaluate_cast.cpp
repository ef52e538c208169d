// CAST(x AS t) over a non-NULL x.
//
// Supported conversions (others fail with kTypeError "cannot cast DATE to DOUBLE";
// the binder rejects them before evaluation):
//   numeric → numeric   to an integer type: truncate toward zero, range-check;
//                       to DECIMAL(p, s): round half away from zero at scale s,
//                       check p digits; to REAL/DOUBLE: nearest value
//   BOOLEAN ↔ integer   FALSE = 0, TRUE = 1 (any non-zero integer is TRUE)
//   BOOLEAN ↔ VARCHAR   'true' / 'false' (case-insensitive when parsing)
//   any → VARCHAR       integers as digits; DOUBLE in the shortest form that
//                       reads back as the same value ("1.5", "100", "1e+20",
//                       "NaN", "Infinity"); REAL the same at float precision;
//                       DECIMAL with exactly its scale ("12.50"); DATE
//                       'YYYY-MM-DD'; TIMESTAMP 'YYYY-MM-DD HH:MM:SS[.fff]'
//   VARCHAR → any       parse after trimming blanks; DECIMAL text may have an
//                       exponent and more digits than the scale (rounded);
//                       TIMESTAMP also accepts a bare date (midnight)
//   DATE ↔ TIMESTAMP    midnight; the day (floor) of a timestamp
//   integer, DECIMAL → TIMESTAMP   milliseconds since 1970 (Feldera), whole seconds kept
//   TIMESTAMP → integer            milliseconds since 1970, toward zero (Feldera)
//   TIME, INTERVAL      see evaluate_temporal_cast.cpp; → VARCHAR as
//                       format_time / format_interval write them
//   → VARCHAR(n)        truncated to n code points
// Errors: unparsable text → kTypeError "cannot cast 'abc' to INTEGER"; a value
// outside the target's range → kOverflow "cannot cast 300 to TINYINT: out of range".
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "evaluate_internal.h"
#include "freshet/types/calendar.h"
#include "freshet/types/interval.h"
#include "freshet/types/temporal.h"

namespace freshet::sql::internal {

namespace {

std::string type_text(const SqlType& type) { return type.with_nullable(true).to_string(); }

// The value as it appears in a message: text quoted, numbers bare.
std::string shown(const Datum& value, const SqlType& type) {
  std::string text = value_to_text(value, type);
  return type.id == TypeId::kVarchar ? "'" + text + "'" : text;
}

Datum out_of_range(Evaluator& evaluator, const Expr& cast, const Datum& value, const SqlType& from, const SqlType& to) {
  return evaluator.fail(ErrorCode::kOverflow,
                        "cannot cast " + shown(value, from) + " to " + type_text(to) + ": out of range", cast);
}

Datum bad_text(Evaluator& evaluator, const Expr& cast, std::string_view text, const SqlType& to) {
  return evaluator.fail(ErrorCode::kTypeError, "cannot cast '" + std::string(text) + "' to " + type_text(to), cast);
}

Datum unsupported(Evaluator& evaluator, const Expr& cast, const SqlType& from, const SqlType& to) {
  return evaluator.fail(ErrorCode::kTypeError, "cannot cast " + type_text(from) + " to " + type_text(to), cast);
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

bool equals_ignoring_case(std::string_view text, std::string_view lower) {
  if (text.size() != lower.size()) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i] >= 'A' && text[i] <= 'Z' ? static_cast<char>(text[i] - 'A' + 'a') : text[i];
    if (c != lower[i]) return false;
  }
  return true;
}

// The first `count` code points of `text` (all of it when shorter).
std::string_view first_code_points(std::string_view text, uint32_t count) {
  size_t i = 0;
  for (uint32_t seen = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;  // continuation byte
    if (seen++ == count) break;
  }
  return text.substr(0, i);
}

enum class ParseOutcome : uint8_t { kOk, kBadText, kOverflow };

// Parses "[+-]digits[.digits][e[+-]digits]" (an integer when !allow_fraction)
// into an unscaled value at `scale`, rounding half away from zero.
ParseOutcome parse_number(std::string_view text, int scale, bool allow_fraction, int128* out) {
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  std::string digits;  // significant digits, without leading zeros
  int fraction_digits = 0;
  bool seen_point = false, seen_digit = false;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '.' && allow_fraction && !seen_point) {
      seen_point = true;
    } else if (c >= '0' && c <= '9') {
      seen_digit = true;
      if (seen_point) ++fraction_digits;
      if (!digits.empty() || c != '0') digits += c;
    } else {
      break;
    }
  }
  if (!seen_digit) return ParseOutcome::kBadText;
  int exponent = 0;
  if (i < text.size() && allow_fraction && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool negative_exponent = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative_exponent = text[i++] == '-';
    if (i == text.size()) return ParseOutcome::kBadText;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
      if (exponent < 100000) exponent = exponent * 10 + (text[i] - '0');
    }
    if (negative_exponent) exponent = -exponent;
  }
  if (i != text.size()) return ParseOutcome::kBadText;
  // value = digits * 10^(exponent - fraction_digits); unscaled = value * 10^scale.
  // Leading zeros of the fraction were skipped, so count them back in `shift`.
  int shift = scale + exponent - fraction_digits;
  int keep = static_cast<int>(digits.size()) + shift;  // digits left of the scale's point
  if (digits.empty() || keep < 0) {
    *out = 0;
    return ParseOutcome::kOk;
  }
  if (keep > kMaxDecimalPrecision) return ParseOutcome::kOverflow;
  int128 value = 0;
  for (int d = 0; d < keep; ++d) value = value * 10 + (d < static_cast<int>(digits.size()) ? digits[d] - '0' : 0);
  if (keep < static_cast<int>(digits.size()) && digits[keep] >= '5') value += 1;
  *out = negative ? -value : value;
  return ParseOutcome::kOk;
}

Datum to_integer(Evaluator& evaluator, const Expr& cast, const Datum& value, const SqlType& from, const SqlType& to) {
  int64_t result = 0;
  switch (from.id) {
    case TypeId::kBoolean: return Datum::of_int(value.integer != 0 ? 1 : 0);
    case TypeId::kReal:
    case TypeId::kDouble: {
      double truncated = std::trunc(value.floating);
      // 2^63 is exact as a double; NaN fails both comparisons.
      if (!(truncated >= -9223372036854775808.0 && truncated < 9223372036854775808.0)) {
        return out_of_range(evaluator, cast, value, from, to);
      }
      result = static_cast<int64_t>(truncated);
      break;
    }
    case TypeId::kDecimal: {
      int128 truncated = value.decimal / pow10_int128(from.scale);
      if (truncated < std::numeric_limits<int64_t>::min() || truncated > std::numeric_limits<int64_t>::max()) {
        return out_of_range(evaluator, cast, value, from, to);
      }
      result = static_cast<int64_t>(truncated);
      break;
    }
    case TypeId::kVarchar: {
      std::string_view text = trim(value.string);
      int128 parsed;
      ParseOutcome outcome = parse_number(text, 0, false, &parsed);
      if (outcome == ParseOutcome::kBadText) return bad_text(evaluator, cast, text, to);
      if (outcome == ParseOutcome::kOverflow || parsed < std::numeric_limits<int64_t>::min() ||
          parsed > std::numeric_limits<int64_t>::max()) {
        return out_of_range(evaluator, cast, value, from, to);
      }
      result = static_cast<int64_t>(parsed);
      break;
    }
    default:
      if (!from.is_integer()) return unsupported(evaluator, cast, from, to);
      result = value.integer;
  }
  if (!integer_fits(to.id, result)) return out_of_range(evaluator, cast, value, from, to);
  return Datum::of_int(result);
}

// Exact for |unscaled| < 2^53 and scale <= 22 (one correctly rounded division
// of two exact doubles); otherwise through the decimal text, which strtod
// rounds correctly.
double decimal_to_double(int128 unscaled, uint8_t scale) {
  int128 limit = int128{1} << 53;
  if (unscaled < limit && unscaled > -limit && scale <= 22) {
    return static_cast<double>(static_cast<int64_t>(unscaled)) / std::pow(10.0, scale);
  }
  return std::strtod(decimal_to_string(unscaled, scale).c_str(), nullptr);
}

Datum to_floating(Evaluator& evaluator, const Expr& cast, const Datum& value, const SqlType& from, const SqlType& to) {
  double result = 0;
  switch (from.id) {
    case TypeId::kReal:
    case TypeId::kDouble: result = value.floating; break;
    case TypeId::kDecimal: result = decimal_to_double(value.decimal, from.scale); break;
    case TypeId::kVarchar: {
      std::string text(trim(value.string));
      char* end = nullptr;
      result = std::strtod(text.c_str(), &end);
      if (text.empty() || end != text.c_str() + text.size()) return bad_text(evaluator, cast, text, to);
      break;
    }
    default:
      if (!from.is_integer()) return unsupported(evaluator, cast, from, to);
      result = static_cast<double>(value.integer);
  }
  if (to.id == TypeId::kReal) result = static_cast<float>(result);
  return Datum::of_double(result);
}

Datum to_decimal(Evaluator& evaluator, const Expr& cast, const Datum& value, const SqlType& from, const SqlType& to) {
  int128 result = 0;
  bool ok = true;
  switch (from.id) {
    case TypeId::kDecimal: ok = rescale_checked(value.decimal, from.scale, to.scale, &result); break;
    case TypeId::kReal:
    case TypeId::kDouble: {
      // Through the shortest text, so that 1.005 becomes 1.01 at scale 2 as
      // its literal would, not 1.00 as the binary value 1.00499... would.
      if (!std::isfinite(value.floating)) return out_of_range(evaluator, cast, value, from, to);
      std::string text = from.id == TypeId::kReal ? real_to_string(static_cast<float>(value.floating))
                                                  : double_to_string(value.floating);
      ok = parse_number(text, to.scale, true, &result) == ParseOutcome::kOk;
      break;
    }
    case TypeId::kVarchar: {
      std::string_view text = trim(value.string);
      ParseOutcome outcome = parse_number(text, to.scale, true, &result);
      if (outcome == ParseOutcome::kBadText) return bad_text(evaluator, cast, text, to);
      ok = outcome == ParseOutcome::kOk;
      break;
    }
    default:
      if (!from.is_integer()) return unsupported(evaluator, cast, from, to);
      ok = rescale_checked(value.integer, 0, to.scale, &result);
  }
  uint8_t precision = to.precision == 0 ? kMaxDecimalPrecision : to.precision;
  if (!ok || !decimal_fits(result, precision)) return out_of_range(evaluator, cast, value, from, to);
  return Datum::of_decimal(result);
}

Datum to_boolean(Evaluator& evaluator, const Expr& cast, const Datum& value, const SqlType& from, const SqlType& to) {
  if (from.id == TypeId::kBoolean || from.is_integer()) return Datum::of_bool(value.integer != 0);
  if (from.id != TypeId::kVarchar) return unsupported(evaluator, cast, from, to);
  std::string_view text = trim(value.string);
  if (equals_ignoring_case(text, "true")) return Datum::of_bool(true);
  if (equals_ignoring_case(text, "false")) return Datum::of_bool(false);
  return bad_text(evaluator, cast, text, to);
}

Datum to_date(Evaluator& evaluator, const Expr& cast, const Datum& value, const SqlType& from, const SqlType& to) {
  switch (from.id) {
    case TypeId::kDate: return value;
    case TypeId::kTimestamp: {
      int64_t days = value.integer / kMicrosPerDay;
      if (value.integer % kMicrosPerDay < 0) --days;  // floor: before 1970 too
      return Datum::of_int(days);
    }
    case TypeId::kVarchar: {
      std::string_view text = trim(value.string);
      Result<int32_t> days = parse_date(text);
      return days.ok() ? Datum::of_int(*days) : bad_text(evaluator, cast, text, to);
    }
    default: return unsupported(evaluator, cast, from, to);
  }
}

// Feldera: milliseconds since 1970, of which whole seconds count ("Calcite
// ignores sub-second units"); a DECIMAL is truncated to an integer first.
Datum milliseconds_to_timestamp(Evaluator& evaluator, const Expr& cast, const Datum& value, const SqlType& from,
                                const SqlType& to) {
  int64_t millis = value.integer;
  if (from.id == TypeId::kDecimal) {
    int128 whole = value.decimal / pow10_int128(from.scale);
    if (whole > std::numeric_limits<int64_t>::max() || whole < std::numeric_limits<int64_t>::min()) {
      return evaluator.fail(ErrorCode::kOverflow, "cannot cast " + shown(value, from) + " to TIMESTAMP: out of range",
                            cast);
    }
    millis = static_cast<int64_t>(whole);
  }
  int64_t micros;
  if (__builtin_mul_overflow(millis / 1000, 1000 * int64_t{1000}, &micros) || !timestamp_in_range(micros)) {
    return evaluator.fail(ErrorCode::kOverflow, "cannot cast " + shown(value, from) + " to TIMESTAMP: out of range",
                          cast);
  }
  return Datum::of_int(micros);
}

Datum to_timestamp(Evaluator& evaluator, const Expr& cast, const Datum& value, const SqlType& from, const SqlType& to) {
  switch (from.id) {
    case TypeId::kTimestamp: return value;
    case TypeId::kDate: return Datum::of_int(value.integer * kMicrosPerDay);
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInt:
    case TypeId::kBigInt:
    case TypeId::kDecimal: return milliseconds_to_timestamp(evaluator, cast, value, from, to);
    case TypeId::kVarchar: {
      std::string_view text = trim(value.string);
      if (text.size() == 10) {
        Result<int32_t> days = parse_date(text);
        return days.ok() ? Datum::of_int(int64_t{*days} * kMicrosPerDay) : bad_text(evaluator, cast, text, to);
      }
      Result<int64_t> micros = parse_timestamp(text);
      return micros.ok() ? Datum::of_int(*micros) : bad_text(evaluator, cast, text, to);
    }
    default: return unsupported(evaluator, cast, from, to);
  }
}

Datum to_varchar(Evaluator& evaluator, const Expr& cast, const Datum& value, const SqlType& from, const SqlType& to) {
  std::string_view text = value.string;
  if (from.id != TypeId::kVarchar) {
    std::string* buffer = evaluator.scratch();
    *buffer = value_to_text(value, from);
    text = *buffer;
  }
  return Datum::of_string(to.max_length == 0 ? text : first_code_points(text, to.max_length));
}

// The shortest rendering with at most `max_digits` significant digits that
// `read_back` maps to `value`, laid out as "%.<max_digits>g" would: plain
// ("100", "0.001") unless the decimal exponent is below -4 or at least
// max_digits ("1e-05", "1e+20").
template <typename ReadBack>
std::string shortest_form(double value, int max_digits, ReadBack read_back) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value < 0 ? "-Infinity" : "Infinity";
  char text[48];
  int digits = 1;
  for (; digits <= max_digits; ++digits) {
    std::snprintf(text, sizeof text, "%.*e", digits - 1, value);
    if (read_back(text)) break;
  }
  if (digits > max_digits) digits = max_digits;
  const char* exponent_text = std::strchr(text, 'e');
  int exponent = exponent_text == nullptr ? 0 : std::atoi(exponent_text + 1);
  if (exponent < -4 || exponent >= max_digits) return text;
  int decimals = digits - 1 - exponent;
  std::snprintf(text, sizeof text, "%.*f", decimals < 0 ? 0 : decimals, value);
  return text;
}

}  // namespace

std::string double_to_string(double value) {
  return shortest_form(value, 17, [&](const char* text) { return std::strtod(text, nullptr) == value; });
}

std::string real_to_string(float value) {
  return shortest_form(value, 9, [&](const char* text) { return std::strtof(text, nullptr) == value; });
}

std::string value_to_text(const Datum& value, const SqlType& type) {
  switch (type.id) {
    case TypeId::kBoolean: return value.integer != 0 ? "true" : "false";
    case TypeId::kReal: return real_to_string(static_cast<float>(value.floating));
    case TypeId::kDouble: return double_to_string(value.floating);
    case TypeId::kDecimal: return decimal_to_string(value.decimal, type.scale);
    case TypeId::kVarchar: return std::string(value.string);
    case TypeId::kDate: return format_date(static_cast<int32_t>(value.integer));
    case TypeId::kTimestamp: return format_timestamp(value.integer);
    case TypeId::kTime: return format_time(value.integer);
    case TypeId::kIntervalDayTime:
    case TypeId::kIntervalYearMonth: return format_interval(value.integer, type);
    default: return std::to_string(value.integer);
  }
}

Datum cast_value(Evaluator& evaluator, const Expr& cast, const Datum& value, const SqlType& from, const SqlType& to) {
  if (is_temporal_cast(from, to)) return cast_temporal(evaluator, cast, value, from, to);
  switch (to.id) {
    case TypeId::kBoolean: return to_boolean(evaluator, cast, value, from, to);
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInt:
    case TypeId::kBigInt:
      if (from.id == TypeId::kDate) return unsupported(evaluator, cast, from, to);
      if (from.id == TypeId::kTimestamp) {  // Feldera: milliseconds since 1970, toward zero
        return to_integer(evaluator, cast, Datum::of_int(value.integer / 1000), SqlType::bigint(), to);
      }
      return to_integer(evaluator, cast, value, from, to);
    case TypeId::kReal:
    case TypeId::kDouble:
      if (from.id == TypeId::kBoolean) return unsupported(evaluator, cast, from, to);
      return to_floating(evaluator, cast, value, from, to);
    case TypeId::kDecimal:
      if (from.id == TypeId::kBoolean) return unsupported(evaluator, cast, from, to);
      return to_decimal(evaluator, cast, value, from, to);
    case TypeId::kVarchar: return to_varchar(evaluator, cast, value, from, to);
    case TypeId::kDate: return to_date(evaluator, cast, value, from, to);
    case TypeId::kTimestamp: return to_timestamp(evaluator, cast, value, from, to);
    default: break;
  }
  return unsupported(evaluator, cast, from, to);
}

}  // namespace freshet::sql::internal
