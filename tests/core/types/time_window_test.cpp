// windows_holding (types/time_window.h): the TUMBLE and HOP windows that hold a time, against a
// brute-force search over the window starts offset + k * slide.
#include "freshet/types/time_window.h"

#include <gtest/gtest.h>

#include <random>

#include "freshet/types/temporal.h"
#include "support/oracle.h"

namespace freshet {
namespace {

int64_t at(const char* text) { return *parse_timestamp(text); }

constexpr int64_t kMinute = 60 * kMicrosPerSecond, kHour = 60 * kMinute, kDay = 24 * kHour;

TimeWindows window(int64_t size, int64_t slide, int64_t offset = 0) { return {size, slide, offset}; }

TEST(WindowRangeTest, TumbleAlignsToTheEpochPlusTheOffset) {
  // Feldera's StreamTests: 10:15 in 10-minute windows offset by 3 minutes.
  EXPECT_EQ(windows_holding(at("2015-02-15 10:15:00"), window(10 * kMinute, 10 * kMinute, 3 * kMinute))->first_start,
            at("2015-02-15 10:13:00"));
  EXPECT_EQ(windows_holding(at("2015-02-15 10:24:15"), window(kMinute, kMinute))->first_start,
            at("2015-02-15 10:24:00"));
  // A day window crossing into a leap day, a month end, a year end.
  EXPECT_EQ(windows_holding(at("2024-02-29 23:59:59.999999"), window(kDay, kDay))->first_start,
            at("2024-02-29 00:00:00"));
  EXPECT_EQ(windows_holding(at("2024-03-01 00:00:00"), window(kDay, kDay))->first_start, at("2024-03-01 00:00:00"));
  EXPECT_EQ(windows_holding(at("2023-12-31 23:30:00"), window(kHour, kHour, 45 * kMinute))->first_start,
            at("2023-12-31 22:45:00"));
  EXPECT_EQ(windows_holding(at("2024-01-01 00:10:00"), window(kHour, kHour, 45 * kMinute))->first_start,
            at("2023-12-31 23:45:00"));
  // Before 1970 the windows stay aligned (floor, not truncation).
  EXPECT_EQ(windows_holding(at("1969-12-31 23:59:30"), window(kMinute, kMinute))->first_start,
            at("1969-12-31 23:59:00"));
  EXPECT_EQ(windows_holding(at("1969-12-31 23:59:30"), window(kMinute, kMinute))->count, 1);
}

TEST(WindowRangeTest, HopMatchesFelderasExample) {
  // HOP(slide 5 min, size 10 min, offset 2 min): 10:15 is in 10:07 and 10:12.
  std::optional<WindowRange> range =
      windows_holding(at("2015-02-15 10:15:00"), window(10 * kMinute, 5 * kMinute, 2 * kMinute));
  EXPECT_EQ(range->first_start, at("2015-02-15 10:07:00"));
  EXPECT_EQ(range->count, 2);
}

TEST(WindowRangeTest, MatchesBruteForce) {
  std::mt19937_64 random(testing::test_seed(151));
  for (int i = 0; i < 20000; ++i) {
    int64_t slide = std::uniform_int_distribution<int64_t>(1, 12)(random);
    int64_t size = std::uniform_int_distribution<int64_t>(1, 40)(random);
    int64_t offset = std::uniform_int_distribution<int64_t>(-30, 30)(random);
    int64_t time = std::uniform_int_distribution<int64_t>(-100, 100)(random);
    std::vector<int64_t> starts;
    for (int64_t start = -400; start <= 400; ++start) {
      bool on_grid = ((start - offset) % slide + slide) % slide == 0;
      if (on_grid && start <= time && time < start + size) starts.push_back(start);
    }
    std::optional<WindowRange> range = windows_holding(time, window(size, slide, offset));
    ASSERT_TRUE(range.has_value());
    ASSERT_EQ(range->count, static_cast<int64_t>(starts.size()))
        << "time " << time << " size " << size << " slide " << slide << " offset " << offset;
    if (!starts.empty()) {
      ASSERT_EQ(range->first_start, starts.front());
    }
  }
}

TEST(WindowRangeTest, BoundsOutOfRangeAreRefused) {
  EXPECT_FALSE(windows_holding(std::numeric_limits<int64_t>::max() - 5, window(kDay, kDay)).has_value());
}

}  // namespace
}  // namespace freshet
