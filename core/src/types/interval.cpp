#include "freshet/types/interval.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "freshet/types/temporal.h"

namespace freshet {
namespace {

// The qualifier's fields in order, YEAR TO MONTH or a run of DAY .. SECOND.
std::vector<IntervalUnit> qualifier_fields(const SqlType& type) {
  std::vector<IntervalUnit> fields;
  for (int unit = static_cast<int>(type.interval_start()); unit <= static_cast<int>(type.interval_end()); ++unit) {
    fields.push_back(static_cast<IntervalUnit>(unit));
  }
  return fields;
}

// The separator written before a field (after the previous one).
char separator_before(IntervalUnit unit) {
  switch (unit) {
    case IntervalUnit::kMonth: return '-';
    case IntervalUnit::kHour: return ' ';
    default: return ':';
  }
}

// Exclusive upper bound of a field that is not the first.
int64_t field_limit(IntervalUnit unit) {
  switch (unit) {
    case IntervalUnit::kMonth: return 12;
    case IntervalUnit::kHour: return 24;
    default: return 60;
  }
}

// "D H:M:S[.f]" for DAY TO SECOND, "Y-M" for YEAR TO MONTH.
std::string expected_form(const std::vector<IntervalUnit>& fields) {
  std::string form;
  for (IntervalUnit unit : fields) {
    if (!form.empty()) form += separator_before(unit);
    form += interval_unit_name(unit)[0];
  }
  if (fields.back() == IntervalUnit::kSecond) form += "[.f]";
  return form;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Reads digits at `position`; false when there are none (`digits` 0) or on overflow.
bool read_number(std::string_view text, size_t* position, int64_t* value, size_t* digits) {
  size_t start = *position;
  int64_t result = 0;
  bool overflow = false;
  while (*position < text.size() && is_digit(text[*position])) {
    overflow = overflow || __builtin_mul_overflow(result, 10, &result) ||
               __builtin_add_overflow(result, text[*position] - '0', &result);
    ++*position;
  }
  *digits = *position - start;
  *value = result;
  return *digits > 0 && !overflow;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

int64_t floor_divide(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0); }

}  // namespace

int64_t interval_unit_size(IntervalUnit unit) {
  switch (unit) {
    case IntervalUnit::kYear: return 12;
    case IntervalUnit::kMonth: return 1;
    case IntervalUnit::kDay: return kMicrosPerDay;
    case IntervalUnit::kHour: return kMicrosPerHour;
    case IntervalUnit::kMinute: return kMicrosPerMinute;
    case IntervalUnit::kSecond: return kMicrosPerSecond;
    case IntervalUnit::kNone: break;
  }
  return 1;
}

Result<int64_t> parse_interval(std::string_view original, const SqlType& type, uint32_t leading_precision) {
  std::vector<IntervalUnit> fields = qualifier_fields(type);
  std::string qualified = type.with_nullable(true).to_string();
  auto bad = [&](const std::string& problem) {
    return Status(ErrorCode::kTypeError, "'" + std::string(original) + "' is not a valid " + qualified + ": " + problem);
  };
  std::string_view text = trim(original);
  bool negative = false;
  size_t position = 0;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    ++position;
  }
  int64_t total = 0;
  for (size_t i = 0; i < fields.size(); ++i) {
    IntervalUnit unit = fields[i];
    if (i > 0) {
      char separator = separator_before(unit);
      if (position >= text.size() || text[position] != separator) return bad("expected '" + expected_form(fields) + "'");
      while (separator == ' ' && position < text.size() && text[position] == ' ') ++position;
      if (separator != ' ') ++position;
    }
    int64_t value;
    size_t digits;
    if (!read_number(text, &position, &value, &digits)) {
      return bad(digits > 0 ? "the number is too large" : "expected '" + expected_form(fields) + "'");
    }
    if (i == 0 && leading_precision != 0 && digits > leading_precision) {
      return bad(std::string("the ") + interval_unit_name(unit) + " field has more than " +
                 std::to_string(leading_precision) + " digits");
    }
    if (i > 0 && value >= field_limit(unit)) {
      return bad(std::string(interval_unit_name(unit)) + " must be below " + std::to_string(field_limit(unit)));
    }
    int64_t scaled;
    if (__builtin_mul_overflow(value, interval_unit_size(unit), &scaled) || __builtin_add_overflow(total, scaled, &total)) {
      return bad("out of range");
    }
  }
  if (position < text.size() && text[position] == '.' && fields.back() == IntervalUnit::kSecond) {
    ++position;
    int64_t fraction;
    size_t digits;
    if (!read_number(text, &position, &fraction, &digits) || digits > 6) {
      return bad("expected 1 to 6 fraction digits");
    }
    for (size_t i = digits; i < 6; ++i) fraction *= 10;
    if (__builtin_add_overflow(total, fraction, &total)) return bad("out of range");
  }
  if (position != text.size()) return bad("expected '" + expected_form(fields) + "'");
  return negative ? -total : total;
}

std::string format_interval(int64_t value, const SqlType& type) {
  IntervalUnit start = type.interval_start(), end = type.interval_end();
  char text[96];
  if (type.id == TypeId::kIntervalYearMonth) {
    if (start == end) {
      // Feldera: a sign even for 0 ("+0"), and whole years truncated toward zero.
      std::snprintf(text, sizeof text, "%+lld", static_cast<long long>(start == IntervalUnit::kYear ? value / 12 : value));
      return text;
    }
    uint64_t magnitude = value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
    std::snprintf(text, sizeof text, "%c%llu-%02llu", value < 0 ? '-' : '+',
                  static_cast<unsigned long long>(magnitude / 12), static_cast<unsigned long long>(magnitude % 12));
    return text;
  }
  if (start == IntervalUnit::kMinute && end == IntervalUnit::kMinute) {
    std::snprintf(text, sizeof text, "%+lld", static_cast<long long>(value / kMicrosPerMinute));
    return text;
  }
  char sign = value < 0 ? '-' : '+';
  uint64_t magnitude = value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  auto part = [&](int64_t unit) { return static_cast<unsigned long long>(magnitude / static_cast<uint64_t>(unit)); };
  unsigned long long days = part(kMicrosPerDay), total_hours = part(kMicrosPerHour),
                     total_minutes = part(kMicrosPerMinute), total_seconds = part(kMicrosPerSecond);
  unsigned long long hours = total_hours % 24, minutes = total_minutes % 60, seconds = total_seconds % 60;
  unsigned long long micros = magnitude % kMicrosPerSecond;
  switch (start) {
    case IntervalUnit::kDay:
      if (end == IntervalUnit::kDay) {
        std::snprintf(text, sizeof text, "%c%llu", sign, days);
      } else if (end == IntervalUnit::kHour) {
        std::snprintf(text, sizeof text, "%c%llu %02llu", sign, days, hours);
      } else if (end == IntervalUnit::kMinute) {
        std::snprintf(text, sizeof text, "%c%llu %02llu:%02llu", sign, days, hours, minutes);
      } else if (micros == 0) {
        std::snprintf(text, sizeof text, "%c%llu %02llu:%02llu:%02llu", sign, days, hours, minutes, seconds);
      } else {
        std::snprintf(text, sizeof text, "%c%llu %02llu:%02llu:%02llu.%06llu", sign, days, hours, minutes, seconds,
                      micros);
      }
      return text;
    case IntervalUnit::kHour:
      if (end == IntervalUnit::kHour) {
        std::snprintf(text, sizeof text, "%c%llu", sign, total_hours);
      } else if (end == IntervalUnit::kMinute) {
        std::snprintf(text, sizeof text, "%c%llu:%02llu", sign, total_hours, minutes);
      } else {
        std::snprintf(text, sizeof text, "%c%llu:%02llu:%02llu.%06llu", sign, total_hours, minutes, seconds, micros);
      }
      return text;
    case IntervalUnit::kMinute:
      std::snprintf(text, sizeof text, "%c%02llu:%02llu.%06llu", sign, total_minutes, seconds, micros);
      return text;
    default:
      std::snprintf(text, sizeof text, "%c%llu.%06llu", sign, total_seconds, micros);
      return text;
  }
}

bool add_months_to_date(int64_t days, int64_t months, int64_t* out) {
  // Any |months| beyond the DATE range's span fails without overflowing below.
  if (!date_in_range(days) || months > 12 * 10'000 || months < -12 * 10'000) return false;
  CivilDate date = civil_from_days(static_cast<int32_t>(days));
  int64_t index = int64_t{date.year} * 12 + (date.month - 1) + months;
  int64_t year = floor_divide(index, 12);
  int64_t month = index - year * 12 + 1;
  if (year < 0 || year > 9999) return false;
  uint32_t day = std::min<uint32_t>(date.day, days_in_month(year, month));
  *out = days_from_civil({static_cast<int32_t>(year), static_cast<uint32_t>(month), day});
  return true;
}

bool add_months_to_timestamp(int64_t micros, int64_t months, int64_t* out) {
  int64_t days = floor_divide(micros, kMicrosPerDay);
  int64_t time_of_day = micros - days * kMicrosPerDay;
  int64_t moved;
  if (!add_months_to_date(days, months, &moved)) return false;
  *out = moved * kMicrosPerDay + time_of_day;
  return true;
}

int64_t months_between(int64_t later, int64_t earlier) {
  int64_t later_days = floor_divide(later, kMicrosPerDay), earlier_days = floor_divide(earlier, kMicrosPerDay);
  CivilDate a = civil_from_days(static_cast<int32_t>(later_days));
  CivilDate b = civil_from_days(static_cast<int32_t>(earlier_days));
  int64_t months = (int64_t{a.year} - b.year) * 12 + (int64_t{a.month} - b.month);
  // Day of month and time of day, compared as one number.
  int64_t a_within = (a.day - 1) * kMicrosPerDay + (later - later_days * kMicrosPerDay);
  int64_t b_within = (b.day - 1) * kMicrosPerDay + (earlier - earlier_days * kMicrosPerDay);
  if (months > 0 && a_within < b_within) --months;
  if (months < 0 && a_within > b_within) ++months;
  return months;
}

}  // namespace freshet
