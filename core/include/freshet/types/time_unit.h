// Time units: the keywords Feldera's dialect takes where a function needs a
// unit or a field (EXTRACT(DOW FROM ts), DATE_TRUNC(d, MONTH),
// TIMESTAMPADD(HOUR, 1, ts), FLOOR(ts TO MINUTE)). One enum serves every
// position; each function checks which units it accepts.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace freshet {

//! A time unit or EXTRACT field, from the longest to the shortest, then the
//! fields that are no unit of length (DOY, DOW, ISODOW, ISOYEAR, EPOCH).
enum class TimeUnit : uint8_t {
  kMillennium,
  kCentury,
  kDecade,
  kYear,
  kQuarter,
  kMonth,
  kWeek,  //!< ISO 8601 week when extracted; truncation goes to Sunday, as Feldera
  kDay,
  kHour,
  kMinute,
  kSecond,
  kMillisecond,   //!< when extracted: within the minute (seconds * 1000 + ms), as Feldera
  kMicrosecond,   //!< when extracted: within the minute
  kNanosecond,    //!< when extracted: within the minute
  kDayOfYear,     //!< DOY, 1..366
  kDayOfWeek,     //!< DOW, Sunday = 1 .. Saturday = 7 (Feldera; PostgreSQL's is 0..6)
  kIsoDayOfWeek,  //!< ISODOW, Monday = 1 .. Sunday = 7
  kIsoYear,       //!< the ISO 8601 week-numbering year
  kEpoch,         //!< seconds since 1970-01-01 00:00:00
};

//! The unit a lower-case keyword names: "year", "sql_tsi_year", "dow", ...;
//! none for any other word.
std::optional<TimeUnit> time_unit_from_name(std::string_view lower_case_name);

//! Every keyword time_unit_from_name() reads, lower case, in table order
//! (the SQL reference lists them).
std::vector<std::string_view> time_unit_names();

//! The unit's keyword in upper case, as messages show it: "MILLENNIUM", "DOW".
const char* time_unit_name(TimeUnit unit);

}  // namespace freshet
