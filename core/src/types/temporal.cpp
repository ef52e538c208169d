#include "freshet/types/temporal.h"

#include <cstdio>

namespace freshet {

// Howard Hinnant's days_from_civil / civil_from_days: exact for the proleptic
// Gregorian calendar over the whole int32 range of days.
int32_t days_from_civil(CivilDate date) {
  int64_t year = date.year - (date.month <= 2 ? 1 : 0);
  int64_t era = (year >= 0 ? year : year - 399) / 400;
  int64_t year_of_era = year - era * 400;
  int64_t day_of_year = (153 * (date.month + (date.month > 2 ? -3 : 9)) + 2) / 5 + date.day - 1;
  int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return static_cast<int32_t>(era * 146097 + day_of_era - 719468);
}

CivilDate civil_from_days(int32_t days) {
  int64_t z = static_cast<int64_t>(days) + 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  int64_t day_of_era = z - era * 146097;
  int64_t year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  int64_t mp = (5 * day_of_year + 2) / 153;
  uint32_t day = static_cast<uint32_t>(day_of_year - (153 * mp + 2) / 5 + 1);
  uint32_t month = static_cast<uint32_t>(mp < 10 ? mp + 3 : mp - 9);
  return {static_cast<int32_t>(year_of_era + era * 400 + (month <= 2 ? 1 : 0)), month, day};
}

std::string format_date(int32_t days) {
  CivilDate date = civil_from_days(days);
  char text[32];
  std::snprintf(text, sizeof text, "%04d-%02u-%02u", date.year, date.month, date.day);
  return text;
}

std::string format_timestamp(int64_t micros) {
  int64_t days = micros / kMicrosPerDay;
  int64_t rest = micros % kMicrosPerDay;
  if (rest < 0) {
    rest += kMicrosPerDay;
    --days;
  }
  return format_date(static_cast<int32_t>(days)) + " " + format_time(rest);
}

std::string format_time(int64_t micros) {
  int64_t seconds = micros / kMicrosPerSecond;
  int64_t fraction = micros % kMicrosPerSecond;
  char text[40];
  int length = std::snprintf(text, sizeof text, "%02d:%02d:%02d", static_cast<int>(seconds / 3600),
                             static_cast<int>(seconds / 60 % 60), static_cast<int>(seconds % 60));
  if (fraction != 0) {
    // Milliseconds when exact, else microseconds, without trailing zeros beyond that.
    if (fraction % 1000 == 0) {
      std::snprintf(text + length, sizeof text - length, ".%03d", static_cast<int>(fraction / 1000));
    } else {
      std::snprintf(text + length, sizeof text - length, ".%06d", static_cast<int>(fraction));
    }
  }
  return text;
}

namespace {

// Reads exactly `count` digits at `position`.
bool read_digits(std::string_view text, size_t position, size_t count, int64_t* out) {
  if (position + count > text.size()) return false;
  int64_t value = 0;
  for (size_t i = position; i < position + count; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    value = value * 10 + (text[i] - '0');
  }
  *out = value;
  return true;
}

}  // namespace

uint32_t days_in_month(int64_t year, int64_t month) {
  static const uint32_t kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

Result<int32_t> parse_date(std::string_view text) {
  int64_t year, month, day;
  if (text.size() != 10 || text[4] != '-' || text[7] != '-' || !read_digits(text, 0, 4, &year) ||
      !read_digits(text, 5, 2, &month) || !read_digits(text, 8, 2, &day)) {
    return Status(ErrorCode::kTypeError, "'" + std::string(text) + "' is not a date (expected YYYY-MM-DD)");
  }
  if (month < 1 || month > 12 || day < 1 || day > days_in_month(year, month)) {
    return Status(ErrorCode::kTypeError, "'" + std::string(text) + "' is not a valid calendar date");
  }
  return days_from_civil({static_cast<int32_t>(year), static_cast<uint32_t>(month), static_cast<uint32_t>(day)});
}

Result<int64_t> parse_timestamp(std::string_view text) {
  auto bad = [&] {
    return Status(ErrorCode::kTypeError,
                  "'" + std::string(text) + "' is not a timestamp (expected YYYY-MM-DD HH:MM:SS[.ffffff])");
  };
  if (text.size() < 19 || (text[10] != ' ' && text[10] != 'T')) return bad();
  Result<int32_t> date = parse_date(text.substr(0, 10));
  if (!date.ok()) return date.status();
  int64_t hour, minute, second;
  if (text[13] != ':' || text[16] != ':' || !read_digits(text, 11, 2, &hour) ||
      !read_digits(text, 14, 2, &minute) || !read_digits(text, 17, 2, &second) || hour > 23 ||
      minute > 59 || second > 59) {
    return bad();
  }
  int64_t micros = 0;
  if (text.size() > 19) {
    size_t digits = text.size() - 20;
    if (text[19] != '.' || digits == 0 || digits > 6) return bad();
    int64_t fraction;
    if (!read_digits(text, 20, digits, &fraction)) return bad();
    micros = fraction;
    for (size_t i = digits; i < 6; ++i) micros *= 10;
  }
  return *date * kMicrosPerDay + (hour * 3600 + minute * 60 + second) * kMicrosPerSecond + micros;
}

Result<int64_t> parse_time(std::string_view text) {
  auto bad = [&] {
    return Status(ErrorCode::kTypeError, "'" + std::string(text) + "' is not a time (expected HH:MM:SS[.fffffffff])");
  };
  int64_t hour, minute, second;
  if (text.size() < 8 || text[2] != ':' || text[5] != ':' || !read_digits(text, 0, 2, &hour) ||
      !read_digits(text, 3, 2, &minute) || !read_digits(text, 6, 2, &second) || hour > 23 || minute > 59 ||
      second > 59) {
    return bad();
  }
  int64_t micros = 0;
  if (text.size() > 8) {
    size_t digits = text.size() - 9;
    if (text[8] != '.' || digits == 0 || digits > 9) return bad();
    int64_t fraction;
    if (!read_digits(text, 9, digits, &fraction)) return bad();
    for (size_t i = digits; i < 6; ++i) fraction *= 10;
    for (size_t i = 6; i < digits; ++i) fraction /= 10;
    micros = fraction;
  }
  return (hour * 3600 + minute * 60 + second) * kMicrosPerSecond + micros;
}

}  // namespace freshet
