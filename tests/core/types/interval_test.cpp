// interval.h and the TIME half of temporal.h: reading interval text for every
// qualifier, writing it as Feldera's CAST(... AS VARCHAR) does, month
// arithmetic with month-end clamping, months_between, and TIME text.
#include "freshet/types/interval.h"

#include <gtest/gtest.h>

#include <random>

#include "freshet/types/temporal.h"

namespace freshet {
namespace {

using U = IntervalUnit;

SqlType day_time(U start, U end) { return SqlType::interval_day_time(start, end); }
SqlType year_month(U start, U end) { return SqlType::interval_year_month(start, end); }

int64_t parsed(std::string_view text, const SqlType& type, uint32_t precision = 0) {
  Result<int64_t> value = parse_interval(text, type, precision);
  EXPECT_TRUE(value.ok()) << text << ": " << value.status().message();
  return value.ok() ? *value : 0;
}

std::string error_of(std::string_view text, const SqlType& type, uint32_t precision = 0) {
  Result<int64_t> value = parse_interval(text, type, precision);
  EXPECT_FALSE(value.ok()) << text;
  if (value.ok()) return "";
  EXPECT_EQ(value.status().code(), ErrorCode::kTypeError);
  return value.status().message();
}

constexpr int64_t kHour = kMicrosPerHour, kMinute = kMicrosPerMinute, kSecond = kMicrosPerSecond;

TEST(IntervalTest, ParsesEveryQualifier) {
  EXPECT_EQ(parsed("20", year_month(U::kYear, U::kYear)), 240);
  EXPECT_EQ(parsed("20-07", year_month(U::kYear, U::kMonth)), 247);
  EXPECT_EQ(parsed("10", year_month(U::kMonth, U::kMonth)), 10);
  EXPECT_EQ(parsed("10", day_time(U::kDay, U::kDay)), 10 * kMicrosPerDay);
  EXPECT_EQ(parsed("10 10", day_time(U::kDay, U::kHour)), 10 * kMicrosPerDay + 10 * kHour);
  EXPECT_EQ(parsed("10 10:30", day_time(U::kDay, U::kMinute)), 10 * kMicrosPerDay + 10 * kHour + 30 * kMinute);
  EXPECT_EQ(parsed("10 10:30:40.999", day_time(U::kDay, U::kSecond)),
            10 * kMicrosPerDay + 10 * kHour + 30 * kMinute + 40 * kSecond + 999'000);
  EXPECT_EQ(parsed("12", day_time(U::kHour, U::kHour)), 12 * kHour);
  EXPECT_EQ(parsed("12:10", day_time(U::kHour, U::kMinute)), 12 * kHour + 10 * kMinute);
  EXPECT_EQ(parsed("12:10:59", day_time(U::kHour, U::kSecond)), 12 * kHour + 10 * kMinute + 59 * kSecond);
  EXPECT_EQ(parsed("80:01.001", day_time(U::kMinute, U::kSecond)), 80 * kMinute + kSecond + 1000);
  EXPECT_EQ(parsed("80.001", day_time(U::kSecond, U::kSecond)), 80 * kSecond + 1000);
  EXPECT_EQ(parsed("1.000001", day_time(U::kSecond, U::kSecond)), kSecond + 1);
}

TEST(IntervalTest, SignsBlanksAndPrecision) {
  // A leading sign applies to every field.
  EXPECT_EQ(parsed("-1 2:03:04", day_time(U::kDay, U::kSecond)),
            -(kMicrosPerDay + 2 * kHour + 3 * kMinute + 4 * kSecond));
  EXPECT_EQ(parsed("+1-2", year_month(U::kYear, U::kMonth)), 14);
  EXPECT_EQ(parsed("-1-2", year_month(U::kYear, U::kMonth)), -14);
  EXPECT_EQ(parsed("  5  ", day_time(U::kDay, U::kDay)), 5 * kMicrosPerDay);
  EXPECT_EQ(parsed("1   02", day_time(U::kDay, U::kHour)), kMicrosPerDay + 2 * kHour);
  EXPECT_EQ(parsed("100", day_time(U::kHour, U::kHour), 3), 100 * kHour);
  EXPECT_EQ(parsed("86400", day_time(U::kSecond, U::kSecond)), kMicrosPerDay);  // no precision: unbounded
}

TEST(IntervalTest, RefusesBadTextWithTheReason) {
  EXPECT_EQ(error_of("1-12", year_month(U::kYear, U::kMonth)),
            "'1-12' is not a valid INTERVAL YEAR TO MONTH: MONTH must be below 12");
  EXPECT_EQ(error_of("1 24", day_time(U::kDay, U::kHour)),
            "'1 24' is not a valid INTERVAL DAY TO HOUR: HOUR must be below 24");
  EXPECT_EQ(error_of("1:60", day_time(U::kHour, U::kMinute)),
            "'1:60' is not a valid INTERVAL HOUR TO MINUTE: MINUTE must be below 60");
  EXPECT_EQ(error_of("1:2", day_time(U::kDay, U::kDay)), "'1:2' is not a valid INTERVAL DAY: expected 'D'");
  EXPECT_EQ(error_of("1", day_time(U::kDay, U::kSecond)),
            "'1' is not a valid INTERVAL DAY TO SECOND: expected 'D H:M:S[.f]'");
  EXPECT_EQ(error_of("", day_time(U::kMinute, U::kMinute)), "'' is not a valid INTERVAL MINUTE: expected 'M'");
  EXPECT_EQ(error_of("1.5", day_time(U::kMinute, U::kMinute)), "'1.5' is not a valid INTERVAL MINUTE: expected 'M'");
  EXPECT_EQ(error_of("1.", day_time(U::kSecond, U::kSecond)),
            "'1.' is not a valid INTERVAL SECOND: expected 1 to 6 fraction digits");
  EXPECT_EQ(error_of("100", day_time(U::kHour, U::kHour), 2),
            "'100' is not a valid INTERVAL HOUR: the HOUR field has more than 2 digits");
  EXPECT_EQ(error_of("106751992", day_time(U::kDay, U::kDay)), "'106751992' is not a valid INTERVAL DAY: out of range");
  EXPECT_EQ(error_of("--1", day_time(U::kDay, U::kDay)), "'--1' is not a valid INTERVAL DAY: expected 'D'");
}

TEST(IntervalTest, FormatsAsFelderaCasts) {
  EXPECT_EQ(format_interval(14, year_month(U::kYear, U::kMonth)), "+1-02");
  EXPECT_EQ(format_interval(-14, year_month(U::kYear, U::kMonth)), "-1-02");
  EXPECT_EQ(format_interval(-14, year_month(U::kYear, U::kYear)), "-1");
  EXPECT_EQ(format_interval(0, year_month(U::kMonth, U::kMonth)), "+0");
  int64_t value = kMicrosPerDay + 2 * kHour + 3 * kMinute + 4 * kSecond + 500'000;
  EXPECT_EQ(format_interval(value, day_time(U::kDay, U::kSecond)), "+1 02:03:04.500000");
  EXPECT_EQ(format_interval(-value, day_time(U::kDay, U::kSecond)), "-1 02:03:04.500000");
  EXPECT_EQ(format_interval(value - 500'000, day_time(U::kDay, U::kSecond)), "+1 02:03:04");
  EXPECT_EQ(format_interval(value, day_time(U::kDay, U::kDay)), "+1");
  EXPECT_EQ(format_interval(value, day_time(U::kDay, U::kHour)), "+1 02");
  EXPECT_EQ(format_interval(value, day_time(U::kDay, U::kMinute)), "+1 02:03");
  EXPECT_EQ(format_interval(value, day_time(U::kHour, U::kHour)), "+26");
  EXPECT_EQ(format_interval(value, day_time(U::kHour, U::kMinute)), "+26:03");
  EXPECT_EQ(format_interval(value, day_time(U::kHour, U::kSecond)), "+26:03:04.500000");
  EXPECT_EQ(format_interval(value, day_time(U::kMinute, U::kMinute)), "+1563");
  EXPECT_EQ(format_interval(-value, day_time(U::kMinute, U::kMinute)), "-1563");
  EXPECT_EQ(format_interval(value, day_time(U::kMinute, U::kSecond)), "+1563:04.500000");
  EXPECT_EQ(format_interval(value, day_time(U::kSecond, U::kSecond)), "+93784.500000");
  EXPECT_EQ(format_interval(INT64_MIN, day_time(U::kSecond, U::kSecond)), "-9223372036854.775808");
  // A default-constructed interval type reads as DAY TO SECOND / YEAR TO MONTH.
  EXPECT_EQ(format_interval(value, SqlType{TypeId::kIntervalDayTime}), "+1 02:03:04.500000");
  EXPECT_EQ(format_interval(25, SqlType{TypeId::kIntervalYearMonth}), "+2-01");
}

// Whatever the qualifier writes with all its fields (the widest ones here),
// reading it back gives the same value.
TEST(IntervalTest, TextRoundTrips) {
  std::mt19937_64 random(41);
  SqlType types[] = {day_time(U::kDay, U::kSecond), day_time(U::kHour, U::kSecond), day_time(U::kMinute, U::kSecond),
                     day_time(U::kSecond, U::kSecond), year_month(U::kYear, U::kMonth),
                     year_month(U::kMonth, U::kMonth)};
  for (int i = 0; i < 20000; ++i) {
    const SqlType& type = types[i % 6];
    int64_t value = static_cast<int64_t>(random() % 2'000'000'000'000'000) - 1'000'000'000'000'000;
    if (i % 3 == 0) value /= 1'000'000;
    std::string text = format_interval(value, type);
    ASSERT_EQ(parsed(text, type), value) << text;
  }
}

TEST(IntervalTest, MonthsClampToTheMonthsEnd) {
  auto plus = [](const char* date, int64_t months) {
    int64_t days = 0;
    EXPECT_TRUE(add_months_to_date(*parse_date(date), months, &days));
    return format_date(static_cast<int32_t>(days));
  };
  EXPECT_EQ(plus("2024-01-31", 1), "2024-02-29");
  EXPECT_EQ(plus("2023-01-31", 1), "2023-02-28");
  EXPECT_EQ(plus("2024-02-29", 12), "2025-02-28");
  EXPECT_EQ(plus("2024-02-29", 48), "2028-02-29");
  EXPECT_EQ(plus("2024-03-31", -1), "2024-02-29");
  EXPECT_EQ(plus("2024-01-15", -13), "2022-12-15");
  EXPECT_EQ(plus("1900-01-31", 1), "1900-02-28");  // not a leap year
  EXPECT_EQ(plus("2000-01-31", 1), "2000-02-29");  // a leap year
  EXPECT_EQ(plus("0000-01-01", 0), "0000-01-01");
  int64_t out;
  EXPECT_FALSE(add_months_to_date(*parse_date("9999-12-01"), 1, &out));
  EXPECT_FALSE(add_months_to_date(*parse_date("0000-01-31"), -1, &out));
  EXPECT_FALSE(add_months_to_date(0, INT64_MAX, &out));
  EXPECT_FALSE(add_months_to_date(0, INT64_MIN, &out));
  int64_t micros;
  ASSERT_TRUE(add_months_to_timestamp(*parse_timestamp("2024-01-31 23:59:59.5"), 1, &micros));
  EXPECT_EQ(format_timestamp(micros), "2024-02-29 23:59:59.500");
  ASSERT_TRUE(add_months_to_timestamp(*parse_timestamp("1969-12-31 01:00:00"), 2, &micros));
  EXPECT_EQ(format_timestamp(micros), "1970-02-28 01:00:00");
}

TEST(IntervalTest, MonthsBetweenCountsWholeMonths) {
  auto months = [](const char* later, const char* earlier) {
    return months_between(*parse_timestamp(later), *parse_timestamp(earlier));
  };
  EXPECT_EQ(months("2023-12-01 00:00:00", "2022-12-01 00:00:00"), 12);
  EXPECT_EQ(months("2022-12-01 00:00:00", "2023-12-01 00:00:00"), -12);
  EXPECT_EQ(months("2023-12-01 00:00:00", "2023-01-01 00:00:00"), 11);
  EXPECT_EQ(months("2023-01-01 10:00:00", "2023-12-01 10:00:00"), -11);
  EXPECT_EQ(months("2024-02-29 00:00:00", "2024-01-31 00:00:00"), 0);
  EXPECT_EQ(months("2024-03-01 09:59:59", "2024-02-01 10:00:00"), 0);
  EXPECT_EQ(months("2024-03-01 10:00:00", "2024-02-01 10:00:00"), 1);
  EXPECT_EQ(months("1969-12-15 00:00:00", "1970-02-15 00:00:01"), -2);
  EXPECT_EQ(months("1969-12-15 00:00:02", "1970-02-15 00:00:01"), -1);
}

TEST(TimeTest, ParsesAndFormats) {
  EXPECT_EQ(*parse_time("00:00:00"), 0);
  EXPECT_EQ(*parse_time("23:59:59.999999"), kMicrosPerDay - 1);
  EXPECT_EQ(*parse_time("12:34:56.7"), (12 * 3600 + 34 * 60 + 56) * kSecond + 700'000);
  EXPECT_EQ(*parse_time("12:34:56.123456789"), (12 * 3600 + 34 * 60 + 56) * kSecond + 123'456);
  for (const char* bad : {"24:00:00", "12:60:00", "12:00:60", "1:00:00", "12:00", "12:00:00.", "12:00:00.1234567890",
                          " 12:00:00", "12-00-00", ""}) {
    Result<int64_t> value = parse_time(bad);
    ASSERT_FALSE(value.ok()) << bad;
    EXPECT_EQ(value.status().message(), "'" + std::string(bad) + "' is not a time (expected HH:MM:SS[.fffffffff])");
  }
  EXPECT_EQ(format_time(0), "00:00:00");
  EXPECT_EQ(format_time(kMicrosPerDay - 1), "23:59:59.999999");
  EXPECT_EQ(format_time(8 * kHour + 250'000), "08:00:00.250");
  std::mt19937_64 random(43);
  for (int i = 0; i < 10000; ++i) {
    int64_t micros = static_cast<int64_t>(random() % kMicrosPerDay);
    if (i % 2 == 0) micros -= micros % 1000;
    ASSERT_EQ(*parse_time(format_time(micros)), micros);
  }
}

TEST(TimeTest, TypesNameTheirQualifier) {
  EXPECT_EQ(SqlType::time(false).to_string(), "TIME NOT NULL");
  EXPECT_EQ(day_time(U::kHour, U::kMinute).to_string(), "INTERVAL HOUR TO MINUTE");
  EXPECT_EQ(day_time(U::kSecond, U::kSecond).to_string(), "INTERVAL SECOND");
  EXPECT_EQ(SqlType{TypeId::kIntervalYearMonth}.to_string(), "INTERVAL YEAR TO MONTH");
  EXPECT_EQ(fixed_width(TypeId::kTime), 8u);
  EXPECT_EQ(fixed_width(TypeId::kIntervalDayTime), 8u);
  EXPECT_EQ(fixed_width(TypeId::kIntervalYearMonth), 8u);
}

}  // namespace
}  // namespace freshet
