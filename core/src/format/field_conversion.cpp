#include "field_conversion.h"

#include <cerrno>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "freshet/types/decimal.h"
#include "freshet/types/interval.h"
#include "freshet/types/temporal.h"

namespace freshet::format::internal {
namespace {

constexpr size_t kShownBytes = 40;

Status out_of_range(std::string_view text, TypeId id) {
  return Status(ErrorCode::kTypeError, std::string(text) + " is out of range for " + type_name(id));
}

bool in_range(int64_t value, TypeId id) {
  switch (id) {
    case TypeId::kTinyInt: return value >= INT8_MIN && value <= INT8_MAX;
    case TypeId::kSmallInt: return value >= INT16_MIN && value <= INT16_MAX;
    case TypeId::kInt: return value >= INT32_MIN && value <= INT32_MAX;
    default: return true;
  }
}

Status set_integer_text(RowBuilder& row, size_t column, std::string_view text, ShownValue shown) {
  const SqlType& type = row.schema().type(column);
  bool integral = false;
  if (!is_number_text(text, &integral) || !integral) return wrong_kind(type, shown);
  std::string_view digits = text[0] == '+' ? text.substr(1) : text;
  int64_t value = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error != std::errc() || end != digits.data() + digits.size()) return out_of_range(text, type.id);
  return set_integer(row, column, value, text);
}

// strtod needs a terminated string; numbers are short, so a stack buffer
// almost always does.
Status set_floating_text(RowBuilder& row, size_t column, std::string_view text, ShownValue shown) {
  const SqlType& type = row.schema().type(column);
  std::string_view unsigned_text = text.empty() || (text[0] != '-' && text[0] != '+') ? text : text.substr(1);
  if (equals_ignoring_case(text, "nan")) return set_floating(row, column, std::nan(""), text);
  if (equals_ignoring_case(unsigned_text, "infinity") || equals_ignoring_case(unsigned_text, "inf")) {
    double infinity = HUGE_VAL;
    return set_floating(row, column, text[0] == '-' ? -infinity : infinity, text);
  }
  bool integral = false;
  if (!is_number_text(text, &integral)) return wrong_kind(type, shown);
  char buffer[64];
  std::string long_text;
  const char* terminated = buffer;
  if (text.size() < sizeof buffer) {
    text.copy(buffer, text.size());
    buffer[text.size()] = '\0';
  } else {
    long_text.assign(text);
    terminated = long_text.c_str();
  }
  errno = 0;
  double value = std::strtod(terminated, nullptr);
  if (errno == ERANGE && std::isinf(value)) return out_of_range(text, type.id);
  return set_floating(row, column, value, text);
}

Status set_boolean_text(RowBuilder& row, size_t column, std::string_view text, ShownValue shown) {
  if (equals_ignoring_case(text, "true")) {
    row.set_bool(column, true);
  } else if (equals_ignoring_case(text, "false")) {
    row.set_bool(column, false);
  } else {
    return wrong_kind(row.schema().type(column), shown);
  }
  return Status::OK();
}

// Rewrites a number with an exponent ("1.25e2") as plain digits ("125") for
// parse_decimal, which takes no exponent.
bool expand_exponent(std::string_view text, std::string* plain) {
  size_t e = text.find_first_of("eE");
  std::string_view mantissa = text.substr(0, e);
  int64_t exponent = 0;
  std::string_view exponent_text = text.substr(e + 1);
  if (!exponent_text.empty() && exponent_text[0] == '+') exponent_text.remove_prefix(1);
  auto [end, error] = std::from_chars(exponent_text.data(), exponent_text.data() + exponent_text.size(), exponent);
  bool all_zero = mantissa.find_first_of("123456789") == std::string_view::npos;
  if (all_zero) {
    *plain = "0";
    return true;
  }
  if (error != std::errc() || end != exponent_text.data() + exponent_text.size() || exponent > 100 ||
      exponent < -100) {
    return false;
  }
  std::string sign, digits;
  size_t point = std::string_view::npos;
  for (char c : mantissa) {
    if (c == '-') sign = "-";
    else if (c == '.') point = digits.size();
    else if (c != '+') digits += c;
  }
  int64_t position = static_cast<int64_t>(point == std::string_view::npos ? digits.size() : point) + exponent;
  if (position <= 0) {
    *plain = sign + "0." + std::string(static_cast<size_t>(-position), '0') + digits;
  } else if (position >= static_cast<int64_t>(digits.size())) {
    *plain = sign + digits + std::string(static_cast<size_t>(position) - digits.size(), '0');
  } else {
    *plain = sign + digits.substr(0, static_cast<size_t>(position)) + "." + digits.substr(static_cast<size_t>(position));
  }
  return true;
}

}  // namespace

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i] >= 'A' && a[i] <= 'Z' ? static_cast<char>(a[i] - 'A' + 'a') : a[i];
    char y = b[i] >= 'A' && b[i] <= 'Z' ? static_cast<char>(b[i] - 'A' + 'a') : b[i];
    if (x != y) return false;
  }
  return true;
}

std::string show(ShownValue value) {
  std::string_view text = value.text;
  bool cut = text.size() > kShownBytes;
  if (cut) {
    size_t end = kShownBytes;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;  // whole code points
    text = text.substr(0, end);
  }
  std::string out;
  if (value.quoted) out += '"';
  out.append(text);
  if (cut) out += "...";
  if (value.quoted) out += '"';
  return out;
}

const char* expected_kind(const SqlType& type) {
  switch (type.id) {
    case TypeId::kBoolean: return "expected a boolean";
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInt:
    case TypeId::kBigInt: return "expected an integer";
    case TypeId::kReal:
    case TypeId::kDouble:
    case TypeId::kDecimal: return "expected a number";
    case TypeId::kVarchar: return "expected a string";
    case TypeId::kDate: return "expected a date 'YYYY-MM-DD'";
    case TypeId::kTimestamp: return "expected a timestamp 'YYYY-MM-DD HH:MM:SS[.ffffff]'";
    case TypeId::kTime: return "expected a time 'HH:MM:SS[.ffffff]'";
    case TypeId::kIntervalDayTime:
    case TypeId::kIntervalYearMonth: return "expected an interval string";
  }
  return "expected a value";
}

Status wrong_kind(const SqlType& type, ShownValue value) {
  return Status(ErrorCode::kParseError, std::string(expected_kind(type)) + ", found " + show(value));
}

bool is_number_text(std::string_view text, bool* integral) {
  size_t i = 0, n = text.size();
  if (i < n && (text[i] == '-' || text[i] == '+')) ++i;
  size_t digits = 0;
  while (i < n && text[i] >= '0' && text[i] <= '9') ++i, ++digits;
  *integral = true;
  if (i < n && text[i] == '.') {
    *integral = false;
    ++i;
    while (i < n && text[i] >= '0' && text[i] <= '9') ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    *integral = false;
    ++i;
    if (i < n && (text[i] == '-' || text[i] == '+')) ++i;
    size_t exponent_digits = 0;
    while (i < n && text[i] >= '0' && text[i] <= '9') ++i, ++exponent_digits;
    if (exponent_digits == 0) return false;
  }
  return i == n;
}

Status set_integer(RowBuilder& row, size_t column, int64_t value, std::string_view text) {
  TypeId id = row.schema().type(column).id;
  if (!in_range(value, id)) return out_of_range(text, id);
  row.set_int(column, value);
  return Status::OK();
}

Status set_floating(RowBuilder& row, size_t column, double value, std::string_view text) {
  TypeId id = row.schema().type(column).id;
  if (id == TypeId::kReal && std::isfinite(value) && std::fabs(value) > static_cast<double>(FLT_MAX)) {
    return out_of_range(text, id);
  }
  row.set_double(column, value);
  return Status::OK();
}

Status set_decimal_text(RowBuilder& row, size_t column, std::string_view text, ShownValue shown) {
  const SqlType& type = row.schema().type(column);
  bool integral = false;
  if (!is_number_text(text, &integral)) return wrong_kind(type, shown);
  std::string plain;
  std::string_view digits = text;
  if (text.find_first_of("eE") != std::string_view::npos) {
    if (!expand_exponent(text, &plain)) {
      return Status(ErrorCode::kTypeError, std::string(text) + " does not fit " + type.with_nullable(true).to_string());
    }
    digits = plain;
  }
  Result<int128> value = parse_decimal(digits, type.precision, type.scale);
  if (!value.ok()) return Status(ErrorCode::kTypeError, value.status().message());
  row.set_decimal(column, *value);
  return Status::OK();
}

Status set_varchar(RowBuilder& row, size_t column, std::string_view text, ShownValue shown) {
  uint32_t max_length = row.schema().type(column).max_length;
  if (max_length != 0 && text.size() > max_length) {
    size_t code_points = 0;
    for (char c : text) code_points += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    if (code_points > max_length) {
      return Status(ErrorCode::kTypeError, show(shown) + " has " + std::to_string(code_points) +
                                               " characters, more than VARCHAR(" + std::to_string(max_length) +
                                               ") allows");
    }
  }
  row.set_string(column, text);
  return Status::OK();
}

Status set_from_text(RowBuilder& row, size_t column, std::string_view text, ShownValue shown) {
  const SqlType& type = row.schema().type(column);
  switch (type.id) {
    case TypeId::kBoolean: return set_boolean_text(row, column, text, shown);
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInt:
    case TypeId::kBigInt: return set_integer_text(row, column, text, shown);
    case TypeId::kReal:
    case TypeId::kDouble: return set_floating_text(row, column, text, shown);
    case TypeId::kDecimal: return set_decimal_text(row, column, text, shown);
    case TypeId::kVarchar: return set_varchar(row, column, text, shown);
    case TypeId::kDate: {
      Result<int32_t> days = parse_date(text);
      if (!days.ok()) return Status(ErrorCode::kTypeError, days.status().message());
      row.set_int(column, *days);
      return Status::OK();
    }
    case TypeId::kTimestamp: {
      Result<int64_t> micros = parse_timestamp(text);
      if (!micros.ok()) return Status(ErrorCode::kTypeError, micros.status().message());
      row.set_int(column, *micros);
      return Status::OK();
    }
    case TypeId::kTime: {
      Result<int64_t> micros = parse_time(text);
      if (!micros.ok()) return Status(ErrorCode::kTypeError, micros.status().message());
      row.set_int(column, *micros);
      return Status::OK();
    }
    case TypeId::kIntervalDayTime:
    case TypeId::kIntervalYearMonth: {
      // Tables have no interval columns (as Feldera); this reads what JSON output writes.
      Result<int64_t> value = parse_interval(text, type);
      if (!value.ok()) return Status(ErrorCode::kTypeError, value.status().message());
      row.set_int(column, *value);
      return Status::OK();
    }
  }
  return wrong_kind(type, shown);
}

}  // namespace freshet::format::internal
