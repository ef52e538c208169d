#include "freshet/types/value.h"

#include <gtest/gtest.h>

#include "freshet/types/decimal.h"
#include "freshet/types/schema.h"
#include "freshet/types/temporal.h"

namespace freshet {
namespace {

TEST(DecimalTest, FormatsAndParses) {
  EXPECT_EQ(decimal_to_string(-1250, 2), "-12.50");
  EXPECT_EQ(decimal_to_string(5, 3), "0.005");
  EXPECT_EQ(decimal_to_string(0, 0), "0");
  EXPECT_EQ(*parse_decimal("12.5", 10, 2), 1250);
  EXPECT_EQ(*parse_decimal("-0.125", 10, 3), -125);
  EXPECT_EQ(*parse_decimal("3", 10, 2), 300);
  EXPECT_EQ(*parse_decimal("1.230", 10, 2), 123);
}

TEST(DecimalTest, RejectsLostDigitsAndOverflow) {
  EXPECT_EQ(parse_decimal("1.234", 10, 2).status().code(), ErrorCode::kTypeError);
  EXPECT_EQ(parse_decimal("12345", 4, 0).status().code(), ErrorCode::kOverflow);
  EXPECT_EQ(parse_decimal("1x", 10, 0).status().code(), ErrorCode::kTypeError);
  EXPECT_EQ(parse_decimal("", 10, 0).status().code(), ErrorCode::kTypeError);
}

TEST(DecimalTest, KeepsThirtyEightDigitsExactly) {
  std::string digits(38, '9');
  Result<int128> value = parse_decimal(digits, 38, 0);
  ASSERT_TRUE(value.ok());
  EXPECT_EQ(decimal_to_string(*value, 0), digits);
  EXPECT_EQ(decimal_to_string(-*value, 0), "-" + digits);
}

TEST(DecimalTest, RescalesRoundingHalfAwayFromZero) {
  EXPECT_EQ(rescale_decimal(125, 2, 1), 13);
  EXPECT_EQ(rescale_decimal(-125, 2, 1), -13);
  EXPECT_EQ(rescale_decimal(124, 2, 1), 12);
  EXPECT_EQ(rescale_decimal(12, 1, 3), 1200);
}

TEST(TemporalTest, DatesRoundTrip) {
  EXPECT_EQ(*parse_date("1970-01-01"), 0);
  EXPECT_EQ(*parse_date("1969-12-31"), -1);
  EXPECT_EQ(format_date(*parse_date("2000-02-29")), "2000-02-29");
  // Every year from 0001 to 9999 (the range of the YYYY-MM-DD form).
  for (int32_t day = *parse_date("0001-01-01"); day <= *parse_date("9999-12-31"); day += 997) {
    EXPECT_EQ(*parse_date(format_date(day)), day);
  }
}

TEST(TemporalTest, RejectsImpossibleDates) {
  EXPECT_FALSE(parse_date("2023-02-29").ok());
  EXPECT_FALSE(parse_date("2023-13-01").ok());
  EXPECT_FALSE(parse_date("2023-1-01").ok());
  EXPECT_FALSE(parse_timestamp("2023-01-01 24:00:00").ok());
  EXPECT_FALSE(parse_timestamp("2023-01-01 10:00").ok());
  EXPECT_FALSE(parse_timestamp("2023-01-01 10:00:00.").ok());
}

TEST(TemporalTest, TimestampsRoundTrip) {
  EXPECT_EQ(format_timestamp(*parse_timestamp("2024-03-01 12:30:00")), "2024-03-01 12:30:00");
  EXPECT_EQ(format_timestamp(*parse_timestamp("2024-03-01T12:30:00.25")), "2024-03-01 12:30:00.250");
  EXPECT_EQ(format_timestamp(*parse_timestamp("1960-03-01 00:00:00.000001")), "1960-03-01 00:00:00.000001");
  EXPECT_EQ(format_timestamp(-1), "1969-12-31 23:59:59.999999");
}

TEST(ValueTest, RendersAndCompares) {
  EXPECT_EQ(Value::null(TypeId::kInt).to_string(), "NULL");
  EXPECT_EQ(Value::varchar("x").to_string(), "'x'");
  EXPECT_EQ(Value::decimal(1050, 2).to_string(), "10.50");
  EXPECT_EQ(Value::bigint(3), Value::bigint(3));
  EXPECT_NE(Value::bigint(3), Value::null(TypeId::kBigInt));
  EXPECT_NE(Value::bigint(3), Value::integer(TypeId::kInt, 3));
}

TEST(SchemaTest, LaysOutColumns) {
  Schema schema({{"a", SqlType::boolean()}, {"b", SqlType::bigint()}, {"c", SqlType::varchar()}});
  EXPECT_EQ(schema.bitmap_bytes(), 1u);
  EXPECT_EQ(schema.offset(0), 1u);
  EXPECT_EQ(schema.offset(1), 2u);
  EXPECT_EQ(schema.offset(2), 10u);
  EXPECT_EQ(schema.fixed_bytes(), 14u);
  EXPECT_EQ(schema.string_ordinal(2), 0);
  EXPECT_EQ(schema.find("c"), 2u);
  EXPECT_FALSE(schema.find("z").has_value());
  EXPECT_EQ(schema.to_string(), "(a BOOLEAN, b BIGINT, c VARCHAR)");
  EXPECT_EQ(Schema().fixed_bytes(), 0u);
  EXPECT_EQ(SqlType::decimal(10, 2, false).to_string(), "DECIMAL(10, 2) NOT NULL");
}

}  // namespace
}  // namespace freshet
