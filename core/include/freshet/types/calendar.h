// Calendar arithmetic on DATE (days since 1970-01-01) and TIMESTAMP
// (microseconds since 1970-01-01 00:00:00), proleptic Gregorian, no time
// zone: the parts, truncation, rounding and month arithmetic behind the SQL
// time functions (EXTRACT, DATE_TRUNC, FLOOR/CEIL TO, TIMESTAMPADD/DIFF).
// Pure functions; each follows Feldera's runtime (crates/sqllib
// timestamp.rs), whose formulas use truncating division: for years before 1
// they are applied as they are, like Feldera's. Month arithmetic and the
// DATE/TIMESTAMP range (years 0000 .. 9999) are interval.h's.
#pragma once

#include <cstdint>
#include <optional>

#include "freshet/types/interval.h"
#include "freshet/types/temporal.h"
#include "freshet/types/time_unit.h"

namespace freshet {

//! A timestamp split into its day (rounded down) and the microseconds into it.
struct DayAndTime {
  int32_t days;
  int64_t micros;  //!< 0 .. kMicrosPerDay - 1
};
DayAndTime split_timestamp(int64_t micros);

//! Sunday = 1 .. Saturday = 7 (Feldera's DOW).
int32_t day_of_week(int32_t days);
//! Monday = 1 .. Sunday = 7 (ISODOW).
int32_t iso_day_of_week(int32_t days);
//! 1 .. 366.
int32_t day_of_year(int32_t days);

//! ISO 8601 week date: week 1 is the week (Monday to Sunday) holding the
//! year's first Thursday; 2021-01-03 is in week 53 of ISO year 2020.
struct IsoWeek {
  int32_t year;
  int32_t week;  //!< 1 .. 53
};
IsoWeek iso_week(int32_t days);

//! EXTRACT(field FROM date): every field; HOUR and shorter are 0; EPOCH is
//! the seconds at midnight.
int64_t extract_from_date(TimeUnit field, int32_t days);
//! EXTRACT(field FROM timestamp). EPOCH truncates toward zero, as Feldera.
int64_t extract_from_timestamp(TimeUnit field, int64_t micros);

//! DATE_TRUNC(date, unit), unit MILLENNIUM .. DAY. MILLENNIUM and CENTURY go
//! to the first year of the millennium or century EXTRACT counts (1001-01-01,
//! 1901-01-01 for 1970), DECADE to a year divisible by 10, WEEK to Sunday.
int32_t truncate_date(int32_t days, TimeUnit unit);
//! TIMESTAMP_TRUNC(ts, unit), unit MILLENNIUM .. SECOND: DATE_TRUNC of the
//! day for DAY and longer units.
int64_t truncate_timestamp(int64_t micros, TimeUnit unit);

//! FLOOR(date TO unit), unit MILLENNIUM .. NANOSECOND: MILLENNIUM, CENTURY and
//! DECADE go to a year divisible by 1000, 100 and 10 (2000-01-01 for 2024,
//! unlike DATE_TRUNC), WEEK to Sunday; units shorter than DAY change nothing.
int32_t floor_date(int32_t days, TimeUnit unit);
//! CEIL(date TO unit): the date itself when it starts a unit, else the start
//! of the next one. None past 9999-12-31 (date_in_range).
std::optional<int32_t> ceil_date(int32_t days, TimeUnit unit);
//! FLOOR(timestamp TO unit), units as floor_date.
int64_t floor_timestamp(int64_t micros, TimeUnit unit);
//! CEIL(timestamp TO unit). None past 9999-12-31 23:59:59.999999.
std::optional<int64_t> ceil_timestamp(int64_t micros, TimeUnit unit);

//! The date of a year, month and day; none unless the year is 1 .. 9999 and
//! the day exists (Feldera's MAKE_DATE).
std::optional<int32_t> make_date(int64_t year, int64_t month, int64_t day);

}  // namespace freshet
