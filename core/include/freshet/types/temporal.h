// DATE, TIMESTAMP and TIME conversions. DATE is days since 1970-01-01;
// TIMESTAMP is microseconds since 1970-01-01 00:00:00, without a time zone
// (as Feldera); TIME is microseconds since midnight.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "freshet/common/status.h"

namespace freshet {

inline constexpr int64_t kMicrosPerSecond = 1'000'000;
inline constexpr int64_t kMicrosPerMinute = 60 * kMicrosPerSecond;
inline constexpr int64_t kMicrosPerHour = 60 * kMicrosPerMinute;
inline constexpr int64_t kMicrosPerDay = 86'400 * kMicrosPerSecond;

struct CivilDate {
  int32_t year;
  uint32_t month;  //!< 1..12
  uint32_t day;    //!< 1..31
};

int32_t days_from_civil(CivilDate date);
//! Days in `month` (1..12) of `year` (proleptic Gregorian).
uint32_t days_in_month(int64_t year, int64_t month);
CivilDate civil_from_days(int32_t days);

//! "2024-03-01"
std::string format_date(int32_t days);
//! "2024-03-01 12:30:00" or with a fraction, "2024-03-01 12:30:00.250"
std::string format_timestamp(int64_t micros);

//! "12:30:00", "12:30:00.250" or "12:30:00.000001" (as timestamps' fractions).
std::string format_time(int64_t micros);

//! Parses "YYYY-MM-DD" and checks that the day exists.
Result<int32_t> parse_date(std::string_view text);
//! Parses "YYYY-MM-DD HH:MM:SS[.ffffff]" (a 'T' instead of the space is accepted).
Result<int64_t> parse_timestamp(std::string_view text);
//! Parses "HH:MM:SS[.fffffffff]" (two digits each, hours 0..23); digits past
//! the microsecond are dropped (TIME keeps microseconds).
Result<int64_t> parse_time(std::string_view text);

}  // namespace freshet
