// The calendar helpers against brute force (walking day by day from a known
// anchor) and against the values of Feldera's own tests
// (PostgresDateTests.java, test_date_time_fn.py, TimestampDiffTests.java).
#include "freshet/types/calendar.h"

#include <gtest/gtest.h>

#include <string>

#include "freshet/types/interval.h"

namespace freshet {
namespace {

int32_t day(const char* text) { return *parse_date(text); }
int64_t ts(const char* text) { return *parse_timestamp(text); }

// 1900-01-01 .. 2100-12-31 covers centuries that are and are not leap years.
const int32_t kFirstDay = days_from_civil({1900, 1, 1});
const int32_t kLastDay = days_from_civil({2100, 12, 31});

TEST(CalendarTest, DayOfWeekAndYearByWalking) {
  // 1900-01-01 was a Monday: DOW 2, ISODOW 1.
  int32_t dow = 2, doy = 1;
  for (int32_t d = kFirstDay; d <= kLastDay; ++d) {
    CivilDate date = civil_from_days(d);
    if (date.month == 1 && date.day == 1) doy = 1;
    ASSERT_EQ(day_of_week(d), dow) << format_date(d);
    ASSERT_EQ(iso_day_of_week(d), dow == 1 ? 7 : dow - 1) << format_date(d);
    ASSERT_EQ(day_of_year(d), doy) << format_date(d);
    dow = dow % 7 + 1;
    ++doy;
  }
  // Before 1970 and far before: the week keeps its rhythm.
  EXPECT_EQ(day_of_week(day("1969-12-31")), 4);  // Wednesday
  EXPECT_EQ(day_of_week(days_from_civil({-1, 12, 31})), day_of_week(days_from_civil({-1, 12, 31}) + 7 * 1000));
}

TEST(CalendarTest, IsoWeekByWalking) {
  // Week 1 of an ISO year starts on the Monday between Dec 29 and Jan 4;
  // 1900-01-01 was such a Monday.
  int32_t year = 1900, week = 1;
  for (int32_t d = kFirstDay; d <= kLastDay; ++d) {
    CivilDate date = civil_from_days(d);
    if (d != kFirstDay && iso_day_of_week(d) == 1) {
      bool starts_year = (date.month == 12 && date.day >= 29) || (date.month == 1 && date.day <= 4);
      if (starts_year) {
        year = date.month == 1 ? date.year : date.year + 1;
        week = 1;
      } else {
        ++week;
      }
    }
    IsoWeek iso = iso_week(d);
    ASSERT_EQ(iso.year, year) << format_date(d);
    ASSERT_EQ(iso.week, week) << format_date(d);
  }
  EXPECT_EQ(iso_week(day("2020-12-31")).week, 53);
  EXPECT_EQ(iso_week(day("2021-01-03")).week, 53);
  EXPECT_EQ(iso_week(day("2021-01-03")).year, 2020);
  EXPECT_EQ(iso_week(day("2021-01-04")).week, 1);
  EXPECT_EQ(iso_week(day("2024-12-30")).week, 1);
  EXPECT_EQ(iso_week(day("2024-12-30")).year, 2025);
}

TEST(CalendarTest, ExtractAsFeldera) {
  // PostgresDateTests.testExtract, rows 1957-04-09, 1996-02-29, 2000-04-02.
  int32_t d = day("1957-04-09");
  EXPECT_EQ(extract_from_date(TimeUnit::kQuarter, d), 2);
  EXPECT_EQ(extract_from_date(TimeUnit::kDecade, d), 195);
  EXPECT_EQ(extract_from_date(TimeUnit::kCentury, d), 20);
  EXPECT_EQ(extract_from_date(TimeUnit::kMillennium, d), 2);
  EXPECT_EQ(extract_from_date(TimeUnit::kWeek, d), 15);
  EXPECT_EQ(extract_from_date(TimeUnit::kDayOfWeek, d), 3);
  EXPECT_EQ(extract_from_date(TimeUnit::kIsoDayOfWeek, d), 2);
  EXPECT_EQ(extract_from_date(TimeUnit::kDayOfYear, d), 99);
  EXPECT_EQ(extract_from_date(TimeUnit::kEpoch, d), -401760000);
  EXPECT_EQ(extract_from_date(TimeUnit::kDayOfYear, day("1996-02-29")), 60);
  EXPECT_EQ(extract_from_date(TimeUnit::kDayOfWeek, day("2000-04-02")), 1);  // Sunday
  EXPECT_EQ(extract_from_date(TimeUnit::kCentury, day("2000-12-31")), 20);
  EXPECT_EQ(extract_from_date(TimeUnit::kCentury, day("2001-01-01")), 21);
  EXPECT_EQ(extract_from_date(TimeUnit::kMillennium, day("2001-01-01")), 3);
  EXPECT_EQ(extract_from_date(TimeUnit::kDecade, day("0009-12-31")), 0);
  EXPECT_EQ(extract_from_date(TimeUnit::kHour, d), 0);
  int64_t t = ts("2020-06-21 14:23:44.123654");
  EXPECT_EQ(extract_from_timestamp(TimeUnit::kSecond, t), 44);
  EXPECT_EQ(extract_from_timestamp(TimeUnit::kMillisecond, t), 44123);
  EXPECT_EQ(extract_from_timestamp(TimeUnit::kMicrosecond, t), 44123654);
  EXPECT_EQ(extract_from_timestamp(TimeUnit::kNanosecond, t), 44123654000);
  EXPECT_EQ(extract_from_timestamp(TimeUnit::kMinute, t), 23);
  EXPECT_EQ(extract_from_timestamp(TimeUnit::kDayOfWeek, t), 1);
  // Before 1970: parts are the calendar's, EPOCH truncates toward zero (as Feldera).
  int64_t before = ts("1969-12-31 23:59:58.500");
  EXPECT_EQ(extract_from_timestamp(TimeUnit::kSecond, before), 58);
  EXPECT_EQ(extract_from_timestamp(TimeUnit::kEpoch, before), -1);
}

TEST(CalendarTest, TruncateFloorCeilAsFeldera) {
  EXPECT_EQ(format_date(truncate_date(day("1970-03-20"), TimeUnit::kMillennium)), "1001-01-01");
  EXPECT_EQ(format_date(truncate_date(day("1970-03-20"), TimeUnit::kCentury)), "1901-01-01");
  EXPECT_EQ(format_date(truncate_date(day("2004-08-10"), TimeUnit::kCentury)), "2001-01-01");
  EXPECT_EQ(format_date(truncate_date(day("0002-02-04"), TimeUnit::kCentury)), "0001-01-01");
  EXPECT_EQ(format_date(truncate_date(day("1993-12-25"), TimeUnit::kDecade)), "1990-01-01");
  EXPECT_EQ(format_date(truncate_date(day("1993-12-25"), TimeUnit::kWeek)), "1993-12-19");
  EXPECT_EQ(format_timestamp(truncate_timestamp(ts("2015-02-19 12:34:56.78"), TimeUnit::kMinute)),
            "2015-02-19 12:34:00");
  int64_t t = ts("2020-06-21 14:23:44.123654");
  EXPECT_EQ(format_timestamp(floor_timestamp(t, TimeUnit::kMillennium)), "2000-01-01 00:00:00");
  EXPECT_EQ(format_timestamp(floor_timestamp(t, TimeUnit::kQuarter)), "2020-04-01 00:00:00");
  EXPECT_EQ(format_timestamp(floor_timestamp(t, TimeUnit::kWeek)), "2020-06-21 00:00:00");
  EXPECT_EQ(format_timestamp(floor_timestamp(t, TimeUnit::kMillisecond)), "2020-06-21 14:23:44.123");
  EXPECT_EQ(format_timestamp(*ceil_timestamp(t, TimeUnit::kMillennium)), "3000-01-01 00:00:00");
  EXPECT_EQ(format_timestamp(*ceil_timestamp(t, TimeUnit::kWeek)), "2020-06-28 00:00:00");
  EXPECT_EQ(format_timestamp(*ceil_timestamp(t, TimeUnit::kMillisecond)), "2020-06-21 14:23:44.124");
  EXPECT_EQ(format_timestamp(*ceil_timestamp(t, TimeUnit::kMicrosecond)), "2020-06-21 14:23:44.123654");
  EXPECT_EQ(format_date(*ceil_date(day("2020-06-21"), TimeUnit::kWeek)), "2020-06-21");
  EXPECT_EQ(format_date(*ceil_date(day("2020-06-21"), TimeUnit::kQuarter)), "2020-07-01");
  EXPECT_EQ(format_date(*ceil_date(day("2020-11-21"), TimeUnit::kQuarter)), "2021-01-01");
  EXPECT_FALSE(ceil_date(days_from_civil({9999, 6, 1}), TimeUnit::kYear).has_value());
}

TEST(CalendarTest, FloorAndCeilBracketEveryDay) {
  const TimeUnit units[] = {TimeUnit::kMillennium, TimeUnit::kCentury, TimeUnit::kDecade, TimeUnit::kYear,
                            TimeUnit::kQuarter,    TimeUnit::kMonth,   TimeUnit::kWeek,   TimeUnit::kDay};
  for (int32_t d = day("1999-01-01"); d <= day("2001-12-31"); ++d) {
    for (TimeUnit unit : units) {
      int32_t floor = floor_date(d, unit);
      int32_t ceiling = *ceil_date(d, unit);
      ASSERT_LE(floor, d);
      ASSERT_GE(ceiling, d);
      ASSERT_EQ(floor == d, ceiling == d) << format_date(d) << " " << time_unit_name(unit);
      ASSERT_EQ(floor_date(floor, unit), floor);  // a floor starts its unit
      ASSERT_EQ(floor_date(ceiling, unit), ceiling);
      // The timestamp versions agree at midnight and one microsecond after it.
      int64_t midnight = int64_t{d} * kMicrosPerDay;
      ASSERT_EQ(floor_timestamp(midnight + 1, unit), int64_t{floor} * kMicrosPerDay);
      ASSERT_EQ(*ceil_timestamp(midnight, unit), int64_t{ceiling} * kMicrosPerDay);
      ASSERT_GT(*ceil_timestamp(midnight + 1, unit), midnight + 1);
    }
    CivilDate date = civil_from_days(d);
    ASSERT_EQ(floor_date(d, TimeUnit::kMonth), d - static_cast<int32_t>(date.day) + 1);
  }
}

TEST(CalendarTest, AddMonthsClampsByWalking) {
  // add_months_to_date (interval.h) against stepping month by month.
  for (int32_t d = day("2023-01-01"); d <= day("2024-12-31"); d += 3) {
    for (int64_t months = -30; months <= 30; ++months) {
      CivilDate date = civil_from_days(d);
      int64_t year = date.year, month = date.month;
      for (int64_t step = 0; step < (months < 0 ? -months : months); ++step) {
        month += months < 0 ? -1 : 1;
        if (month == 0) month = 12, --year;
        if (month == 13) month = 1, ++year;
      }
      uint32_t last = days_in_month(year, static_cast<uint32_t>(month));
      uint32_t expected_day = date.day < last ? date.day : last;
      int32_t expected = days_from_civil({static_cast<int32_t>(year), static_cast<uint32_t>(month), expected_day});
      int64_t moved = 0;
      ASSERT_TRUE(add_months_to_date(d, months, &moved));
      ASSERT_EQ(moved, expected) << format_date(d) << " + " << months;
    }
  }
  // interval.h's month arithmetic, which TIMESTAMPADD uses, walked above.
}

TEST(CalendarTest, MonthsBetweenAsFeldera) {
  // interval.h's months_between(later, earlier), which TIMESTAMPDIFF uses.
  auto months = [](const char* a, const char* b) { return months_between(ts(b), ts(a)); };
  EXPECT_EQ(months("2001-02-01 00:00:00", "2001-05-01 00:00:00"), 3);
  EXPECT_EQ(months("2002-05-01 00:00:00", "2001-01-01 00:00:00"), -16);
  EXPECT_EQ(months("2000-03-28 00:00:00", "2000-02-29 00:00:00"), 0);
  EXPECT_EQ(months("1991-03-28 00:00:00", "2000-02-29 00:00:00"), 107);
  EXPECT_EQ(months("2020-06-21 14:23:44.123", "2022-01-22 20:24:44.332"), 19);
  // The day and then the time of day must reach the start's.
  EXPECT_EQ(months("2024-01-31 00:00:00", "2024-02-29 00:00:00"), 0);
  EXPECT_EQ(months("2024-01-15 12:00:00", "2024-02-15 11:59:59"), 0);
  EXPECT_EQ(months("2024-01-15 12:00:00", "2024-02-15 12:00:00"), 1);
  // Antisymmetric.
  for (int32_t d = day("2023-11-01"); d <= day("2024-03-31"); d += 5) {
    for (int32_t e = day("2023-11-01"); e <= day("2024-03-31"); e += 7) {
      ASSERT_EQ(months_between(d * kMicrosPerDay, e * kMicrosPerDay),
                -months_between(e * kMicrosPerDay, d * kMicrosPerDay));
    }
  }
}

TEST(CalendarTest, MakeDateAndUnitNames) {
  EXPECT_EQ(format_date(*make_date(2024, 2, 29)), "2024-02-29");
  EXPECT_FALSE(make_date(2023, 2, 29).has_value());
  EXPECT_FALSE(make_date(0, 1, 1).has_value());
  EXPECT_FALSE(make_date(10000, 1, 1).has_value());
  EXPECT_FALSE(make_date(2024, 13, 1).has_value());
  EXPECT_FALSE(make_date(2024, 1, 0).has_value());
  EXPECT_EQ(time_unit_from_name("sql_tsi_day"), TimeUnit::kDay);
  EXPECT_EQ(time_unit_from_name("isodow"), TimeUnit::kIsoDayOfWeek);
  EXPECT_FALSE(time_unit_from_name("days").has_value());
  EXPECT_STREQ(time_unit_name(TimeUnit::kDayOfWeek), "DOW");
  EXPECT_TRUE(timestamp_in_range(ts("9999-12-31 23:59:59")));
  EXPECT_FALSE(timestamp_in_range(INT64_MIN + 1));
  EXPECT_FALSE(timestamp_in_range(INT64_MAX));
}

}  // namespace
}  // namespace freshet
