#include "freshet/types/time_unit.h"

#include <string>

namespace freshet {
namespace {

struct UnitName {
  std::string_view name;  // lower case, as identifiers are normalised
  TimeUnit unit;
};

// Calcite's keywords; SQL_TSI_* are JDBC's synonyms, which Feldera accepts.
constexpr UnitName kUnitNames[] = {
    {"millennium", TimeUnit::kMillennium},
    {"century", TimeUnit::kCentury},
    {"decade", TimeUnit::kDecade},
    {"year", TimeUnit::kYear},
    {"quarter", TimeUnit::kQuarter},
    {"month", TimeUnit::kMonth},
    {"week", TimeUnit::kWeek},
    {"day", TimeUnit::kDay},
    {"hour", TimeUnit::kHour},
    {"minute", TimeUnit::kMinute},
    {"second", TimeUnit::kSecond},
    {"millisecond", TimeUnit::kMillisecond},
    {"microsecond", TimeUnit::kMicrosecond},
    {"nanosecond", TimeUnit::kNanosecond},
    {"doy", TimeUnit::kDayOfYear},
    {"dow", TimeUnit::kDayOfWeek},
    {"isodow", TimeUnit::kIsoDayOfWeek},
    {"isoyear", TimeUnit::kIsoYear},
    {"epoch", TimeUnit::kEpoch},
    {"sql_tsi_year", TimeUnit::kYear},
    {"sql_tsi_quarter", TimeUnit::kQuarter},
    {"sql_tsi_month", TimeUnit::kMonth},
    {"sql_tsi_week", TimeUnit::kWeek},
    {"sql_tsi_day", TimeUnit::kDay},
    {"sql_tsi_hour", TimeUnit::kHour},
    {"sql_tsi_minute", TimeUnit::kMinute},
    {"sql_tsi_second", TimeUnit::kSecond},
};

}  // namespace

std::optional<TimeUnit> time_unit_from_name(std::string_view lower_case_name) {
  for (const UnitName& entry : kUnitNames) {
    if (entry.name == lower_case_name) return entry.unit;
  }
  return std::nullopt;
}

std::vector<std::string_view> time_unit_names() {
  std::vector<std::string_view> names;
  for (const UnitName& entry : kUnitNames) names.push_back(entry.name);
  return names;
}

const char* time_unit_name(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kMillennium:
      return "MILLENNIUM";
    case TimeUnit::kCentury:
      return "CENTURY";
    case TimeUnit::kDecade:
      return "DECADE";
    case TimeUnit::kYear:
      return "YEAR";
    case TimeUnit::kQuarter:
      return "QUARTER";
    case TimeUnit::kMonth:
      return "MONTH";
    case TimeUnit::kWeek:
      return "WEEK";
    case TimeUnit::kDay:
      return "DAY";
    case TimeUnit::kHour:
      return "HOUR";
    case TimeUnit::kMinute:
      return "MINUTE";
    case TimeUnit::kSecond:
      return "SECOND";
    case TimeUnit::kMillisecond:
      return "MILLISECOND";
    case TimeUnit::kMicrosecond:
      return "MICROSECOND";
    case TimeUnit::kNanosecond:
      return "NANOSECOND";
    case TimeUnit::kDayOfYear:
      return "DOY";
    case TimeUnit::kDayOfWeek:
      return "DOW";
    case TimeUnit::kIsoDayOfWeek:
      return "ISODOW";
    case TimeUnit::kIsoYear:
      return "ISOYEAR";
    case TimeUnit::kEpoch:
      return "EPOCH";
  }
  return "?";
}

}  // namespace freshet
