// Calendar arithmetic (see calendar.h). Dates go through CivilDate (Howard
// Hinnant's exact conversions); sub-day units are floor divisions of the
// microseconds, which is the calendar's answer because days start at
// multiples of kMicrosPerDay.
#include "freshet/types/calendar.h"

namespace freshet {
namespace {

int64_t floor_div(int64_t value, int64_t divisor) {
  int64_t quotient = value / divisor;
  return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient;
}

int32_t first_of_year(int64_t year) { return days_from_civil({static_cast<int32_t>(year), 1, 1}); }
int32_t first_of_month(int64_t year, uint32_t month) { return days_from_civil({static_cast<int32_t>(year), month, 1}); }

// Microseconds of sub-day units; 0 for DAY and longer.
int64_t micros_of_unit(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kHour:
      return kMicrosPerHour;
    case TimeUnit::kMinute:
      return kMicrosPerMinute;
    case TimeUnit::kSecond:
      return kMicrosPerSecond;
    case TimeUnit::kMillisecond:
      return 1000;
    case TimeUnit::kMicrosecond:
    case TimeUnit::kNanosecond:
      return 1;  // timestamps hold microseconds: nothing finer to drop
    default:
      return 0;
  }
}

bool in_range_year(int64_t year) { return year >= 0 && year <= 9999; }

}  // namespace

DayAndTime split_timestamp(int64_t micros) {
  int64_t days = floor_div(micros, kMicrosPerDay);
  return {static_cast<int32_t>(days), micros - days * kMicrosPerDay};
}

int32_t day_of_week(int32_t days) {
  // 1970-01-01 was a Thursday: index 4 counting from Sunday = 0.
  int64_t index = (int64_t{days} + 4) % 7;
  return static_cast<int32_t>(index < 0 ? index + 7 : index) + 1;
}

int32_t iso_day_of_week(int32_t days) {
  int32_t dow = day_of_week(days);
  return dow == 1 ? 7 : dow - 1;
}

int32_t day_of_year(int32_t days) { return days - first_of_year(civil_from_days(days).year) + 1; }

IsoWeek iso_week(int32_t days) {
  // The week's Thursday decides its year; weeks count from that year's first Thursday's week.
  int32_t thursday = days - (iso_day_of_week(days) - 1) + 3;
  int32_t year = civil_from_days(thursday).year;
  return {year, (thursday - first_of_year(year)) / 7 + 1};
}

int64_t extract_from_date(TimeUnit field, int32_t days) {
  CivilDate date = civil_from_days(days);
  switch (field) {
    case TimeUnit::kMillennium:
      return (date.year + 999) / 1000;
    case TimeUnit::kCentury:
      return (date.year + 99) / 100;
    case TimeUnit::kDecade:
      return date.year / 10;
    case TimeUnit::kYear:
      return date.year;
    case TimeUnit::kQuarter:
      return (date.month - 1) / 3 + 1;
    case TimeUnit::kMonth:
      return date.month;
    case TimeUnit::kWeek:
      return iso_week(days).week;
    case TimeUnit::kDay:
      return date.day;
    case TimeUnit::kDayOfYear:
      return day_of_year(days);
    case TimeUnit::kDayOfWeek:
      return day_of_week(days);
    case TimeUnit::kIsoDayOfWeek:
      return iso_day_of_week(days);
    case TimeUnit::kIsoYear:
      return iso_week(days).year;
    case TimeUnit::kEpoch:
      return int64_t{days} * 86'400;
    default:
      return 0;  // HOUR and shorter: a date is at midnight
  }
}

int64_t extract_from_timestamp(TimeUnit field, int64_t micros) {
  DayAndTime parts = split_timestamp(micros);
  int64_t micros_of_minute = parts.micros % kMicrosPerMinute;
  switch (field) {
    case TimeUnit::kHour:
      return parts.micros / kMicrosPerHour;
    case TimeUnit::kMinute:
      return parts.micros / kMicrosPerMinute % 60;
    case TimeUnit::kSecond:
      return micros_of_minute / kMicrosPerSecond;
    case TimeUnit::kMillisecond:
      return micros_of_minute / 1000;
    case TimeUnit::kMicrosecond:
      return micros_of_minute;
    case TimeUnit::kNanosecond:
      return micros_of_minute * 1000;
    case TimeUnit::kEpoch:
      return micros / kMicrosPerSecond;  // toward zero, as Feldera
    default:
      return extract_from_date(field, parts.days);
  }
}

int32_t truncate_date(int32_t days, TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kMillennium:
      return first_of_year((extract_from_date(unit, days) - 1) * 1000 + 1);
    case TimeUnit::kCentury:
      return first_of_year((extract_from_date(unit, days) - 1) * 100 + 1);
    default:
      return floor_date(days, unit);
  }
}

int64_t truncate_timestamp(int64_t micros, TimeUnit unit) {
  if (micros_of_unit(unit) != 0) return floor_timestamp(micros, unit);
  return int64_t{truncate_date(split_timestamp(micros).days, unit)} * kMicrosPerDay;
}

int32_t floor_date(int32_t days, TimeUnit unit) {
  CivilDate date = civil_from_days(days);
  switch (unit) {
    case TimeUnit::kMillennium:
      return first_of_year(date.year / 1000 * 1000);
    case TimeUnit::kCentury:
      return first_of_year(date.year / 100 * 100);
    case TimeUnit::kDecade:
      return first_of_year(date.year / 10 * 10);
    case TimeUnit::kYear:
      return first_of_year(date.year);
    case TimeUnit::kQuarter:
      return first_of_month(date.year, (date.month - 1) / 3 * 3 + 1);
    case TimeUnit::kMonth:
      return first_of_month(date.year, date.month);
    case TimeUnit::kWeek:
      return days - (day_of_week(days) - 1);
    default:
      return days;
  }
}

std::optional<int32_t> ceil_date(int32_t days, TimeUnit unit) {
  int32_t floor = floor_date(days, unit);
  if (floor == days) return days;
  CivilDate date = civil_from_days(floor);
  int64_t next_year = date.year;
  uint32_t next_month = 1;
  switch (unit) {
    case TimeUnit::kMillennium:
      next_year += 1000;
      break;
    case TimeUnit::kCentury:
      next_year += 100;
      break;
    case TimeUnit::kDecade:
      next_year += 10;
      break;
    case TimeUnit::kYear:
      next_year += 1;
      break;
    case TimeUnit::kQuarter:
    case TimeUnit::kMonth: {
      int64_t month = date.month + (unit == TimeUnit::kQuarter ? 3 : 1);
      if (month > 12) {
        month -= 12;
        ++next_year;
      }
      next_month = static_cast<uint32_t>(month);
      break;
    }
    case TimeUnit::kWeek:
      return floor + 7;
    default:
      return days;
  }
  if (!in_range_year(next_year)) return std::nullopt;
  return first_of_month(next_year, next_month);
}

int64_t floor_timestamp(int64_t micros, TimeUnit unit) {
  int64_t step = micros_of_unit(unit);
  if (step != 0) return floor_div(micros, step) * step;
  if (unit == TimeUnit::kDay) return floor_div(micros, kMicrosPerDay) * kMicrosPerDay;
  return int64_t{floor_date(split_timestamp(micros).days, unit)} * kMicrosPerDay;
}

std::optional<int64_t> ceil_timestamp(int64_t micros, TimeUnit unit) {
  int64_t floor = floor_timestamp(micros, unit);
  if (floor == micros) return micros;
  int64_t step = micros_of_unit(unit);
  if (unit == TimeUnit::kDay) step = kMicrosPerDay;
  if (step != 0) return floor + step;
  // A longer unit: the next start after the floor's day (which starts a unit but is not `micros`).
  std::optional<int32_t> next = ceil_date(split_timestamp(floor).days + 1, unit);
  if (!next) return std::nullopt;
  return int64_t{*next} * kMicrosPerDay;
}

std::optional<int32_t> make_date(int64_t year, int64_t month, int64_t day) {
  if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1) return std::nullopt;
  if (day > days_in_month(year, static_cast<uint32_t>(month))) return std::nullopt;
  return days_from_civil({static_cast<int32_t>(year), static_cast<uint32_t>(month), static_cast<uint32_t>(day)});
}

}  // namespace freshet
