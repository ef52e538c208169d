// CAST between every supported pair of types, in both directions, with the
// exact messages of failed casts.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "sql/expression_support.h"

namespace freshet::sql {
namespace {

using namespace testing;  // NOLINT: the test helpers

class CastTest : public EvaluatorHarness {
 protected:
  std::string cast_text(ExprPtr value, SqlType to) { return run(cast(std::move(value), to)); }
  void expect_error(ExprPtr value, SqlType to, ErrorCode code, const std::string& message) {
    ExprPtr expr = cast(std::move(value), to);
    Status status = run_failing(expr);
    EXPECT_EQ(status.code(), code) << expr->to_string();
    // The message names the CAST that failed.
    EXPECT_EQ(status.message(), message + " in " + expr->to_string()) << expr->to_string();
  }
};

const SqlType kTiny = SqlType::tinyint(), kSmall = SqlType::smallint(), kInt = SqlType::integer(),
              kBig = SqlType::bigint(), kReal = SqlType::real(), kDouble = SqlType::double_precision(),
              kBool = SqlType::boolean(), kText = SqlType::varchar(), kDate = SqlType::date(),
              kTimestamp = SqlType::timestamp();

TEST_F(CastTest, IntegerToIntegerChecksTheRange) {
  EXPECT_EQ(cast_text(integer(127), kTiny), "127");
  EXPECT_EQ(cast_text(integer(-128), kTiny), "-128");
  EXPECT_EQ(cast_text(integer(-5, SqlType::tinyint(false)), kBig), "-5");
  EXPECT_EQ(cast_text(integer(32767), kSmall), "32767");
  EXPECT_EQ(cast_text(integer(-2147483648), kInt), "-2147483648");
  expect_error(integer(300), kTiny, ErrorCode::kOverflow, "cannot cast 300 to TINYINT: out of range");
  expect_error(integer(-129), kTiny, ErrorCode::kOverflow, "cannot cast -129 to TINYINT: out of range");
  expect_error(integer(40000), kSmall, ErrorCode::kOverflow, "cannot cast 40000 to SMALLINT: out of range");
  expect_error(integer(2147483648), kInt, ErrorCode::kOverflow, "cannot cast 2147483648 to INTEGER: out of range");
}

TEST_F(CastTest, FloatingAndDecimalToIntegerTruncate) {
  EXPECT_EQ(cast_text(floating(2.7), kBig), "2");
  EXPECT_EQ(cast_text(floating(-2.7), kBig), "-2");
  EXPECT_EQ(cast_text(floating(127.9), kTiny), "127");
  EXPECT_EQ(cast_text(floating(2.5, SqlType::real(false)), kInt), "2");
  EXPECT_EQ(cast_text(decimal("-12.99", 10, 2), kBig), "-12");
  EXPECT_EQ(cast_text(decimal("12.99", 10, 2), kSmall), "12");
  expect_error(floating(1e20), kBig, ErrorCode::kOverflow, "cannot cast 1e+20 to BIGINT: out of range");
  expect_error(floating(128.5), kTiny, ErrorCode::kOverflow, "cannot cast 128.5 to TINYINT: out of range");
  expect_error(floating(std::nan("")), kBig, ErrorCode::kOverflow, "cannot cast NaN to BIGINT: out of range");
  expect_error(decimal("99999999999999999999.5", 38, 1), kBig, ErrorCode::kOverflow,
               "cannot cast 99999999999999999999.5 to BIGINT: out of range");
  expect_error(decimal("300.5", 10, 1), kTiny, ErrorCode::kOverflow, "cannot cast 300.5 to TINYINT: out of range");
}

TEST_F(CastTest, ToDecimalRoundsHalfAwayFromZero) {
  EXPECT_EQ(cast_text(integer(5), SqlType::decimal(5, 2)), "5.00");
  EXPECT_EQ(cast_text(integer(-5), SqlType::decimal(5, 2)), "-5.00");
  EXPECT_EQ(cast_text(floating(1.005), SqlType::decimal(5, 2)), "1.01");  // as the literal 1.005 would
  EXPECT_EQ(cast_text(floating(2.5), SqlType::decimal(5, 0)), "3");
  EXPECT_EQ(cast_text(floating(-2.5), SqlType::decimal(5, 0)), "-3");
  EXPECT_EQ(cast_text(floating(1e-7), SqlType::decimal(10, 6)), "0.000000");
  EXPECT_EQ(cast_text(floating(1e20), SqlType::decimal(30, 2)), "100000000000000000000.00");
  EXPECT_EQ(cast_text(floating(0.1f, SqlType::real(false)), SqlType::decimal(10, 3)), "0.100");
  EXPECT_EQ(cast_text(decimal("1.235", 10, 3), SqlType::decimal(10, 2)), "1.24");
  EXPECT_EQ(cast_text(decimal("-1.235", 10, 3), SqlType::decimal(10, 2)), "-1.24");
  EXPECT_EQ(cast_text(decimal("1.23", 10, 2), SqlType::decimal(12, 4)), "1.2300");
  expect_error(integer(1000), SqlType::decimal(5, 2), ErrorCode::kOverflow,
               "cannot cast 1000 to DECIMAL(5, 2): out of range");
  expect_error(floating(1e20), SqlType::decimal(10, 2), ErrorCode::kOverflow,
               "cannot cast 1e+20 to DECIMAL(10, 2): out of range");
  expect_error(floating(INFINITY), SqlType::decimal(10, 2), ErrorCode::kOverflow,
               "cannot cast Infinity to DECIMAL(10, 2): out of range");
  expect_error(decimal("999.99", 10, 2), SqlType::decimal(4, 1), ErrorCode::kOverflow,
               "cannot cast 999.99 to DECIMAL(4, 1): out of range");  // rounds up to 1000.0
}

TEST_F(CastTest, ToFloating) {
  EXPECT_EQ(evaluate(*cast(integer(3), kDouble)).floating, 3.0);
  EXPECT_EQ(evaluate(*cast(integer(INT64_MAX), kDouble)).floating, 9223372036854775807.0);
  EXPECT_EQ(evaluate(*cast(decimal("0.1", 10, 1), kDouble)).floating, 0.1);
  EXPECT_EQ(evaluate(*cast(decimal("-123.456", 10, 3), kDouble)).floating, -123.456);
  std::string big = "12345678901234567890123456789.012345678";
  EXPECT_EQ(evaluate(*cast(decimal(big, 38, 9), kDouble)).floating, std::strtod(big.c_str(), nullptr));
  EXPECT_EQ(evaluate(*cast(floating(0.1), kReal)).floating, static_cast<double>(0.1f));
  EXPECT_EQ(evaluate(*cast(decimal("0.1", 10, 1), kReal)).floating, static_cast<double>(0.1f));
  EXPECT_EQ(evaluate(*cast(floating(0.1f, SqlType::real(false)), kDouble)).floating, static_cast<double>(0.1f));
}

TEST_F(CastTest, BooleanAndInteger) {
  EXPECT_EQ(cast_text(boolean(true), kInt), "1");
  EXPECT_EQ(cast_text(boolean(false), kTiny), "0");
  EXPECT_EQ(cast_text(integer(0), kBool), "FALSE");
  EXPECT_EQ(cast_text(integer(5), kBool), "TRUE");
  EXPECT_EQ(cast_text(integer(-1, SqlType::tinyint(false)), kBool), "TRUE");
}

TEST_F(CastTest, BooleanAndVarchar) {
  EXPECT_EQ(cast_text(boolean(true), kText), "true");
  EXPECT_EQ(cast_text(boolean(false), kText), "false");
  EXPECT_EQ(cast_text(text("TRUE"), kBool), "TRUE");
  EXPECT_EQ(cast_text(text(" False "), kBool), "FALSE");
  EXPECT_EQ(cast_text(text("tRuE"), kBool), "TRUE");
  expect_error(text("yes"), kBool, ErrorCode::kTypeError, "cannot cast 'yes' to BOOLEAN");
}

TEST_F(CastTest, EverythingToVarchar) {
  EXPECT_EQ(cast_text(integer(42), kText), "42");
  EXPECT_EQ(cast_text(integer(-7, SqlType::smallint(false)), kText), "-7");
  EXPECT_EQ(cast_text(integer(INT64_MIN), kText), "-9223372036854775808");
  EXPECT_EQ(cast_text(floating(1.5), kText), "1.5");
  EXPECT_EQ(cast_text(floating(100), kText), "100");
  EXPECT_EQ(cast_text(floating(-0.25), kText), "-0.25");
  EXPECT_EQ(cast_text(floating(1e20), kText), "1e+20");
  EXPECT_EQ(cast_text(floating(0.1), kText), "0.1");
  EXPECT_EQ(cast_text(floating(0.1 + 0.2), kText), "0.30000000000000004");
  EXPECT_EQ(cast_text(floating(1.0 / 3), kText), "0.3333333333333333");
  EXPECT_EQ(cast_text(floating(1e-7), kText), "1e-07");
  EXPECT_EQ(cast_text(floating(0.001), kText), "0.001");
  EXPECT_EQ(cast_text(floating(123456.789), kText), "123456.789");
  EXPECT_EQ(cast_text(floating(1e16), kText), "10000000000000000");
  EXPECT_EQ(cast_text(floating(1.5e17), kText), "1.5e+17");
  EXPECT_EQ(cast_text(floating(-0.0), kText), "-0");
  EXPECT_EQ(cast_text(floating(std::nan("")), kText), "NaN");
  EXPECT_EQ(cast_text(floating(-INFINITY), kText), "-Infinity");
  EXPECT_EQ(cast_text(floating(0.1f, SqlType::real(false)), kText), "0.1");
  EXPECT_EQ(cast_text(floating(16777216.0f, SqlType::real(false)), kText), "16777216");
  EXPECT_EQ(cast_text(floating(1e10f, SqlType::real(false)), kText), "1e+10");
  EXPECT_EQ(cast_text(decimal("12.50", 10, 2), kText), "12.50");
  EXPECT_EQ(cast_text(decimal("-0.05", 10, 2), kText), "-0.05");
  EXPECT_EQ(cast_text(date("2024-03-01"), kText), "2024-03-01");
  EXPECT_EQ(cast_text(timestamp("2024-03-01 12:30:00.25"), kText), "2024-03-01 12:30:00.250");
  EXPECT_EQ(cast_text(timestamp("1969-12-31 23:59:59"), kText), "1969-12-31 23:59:59");
}

TEST_F(CastTest, DoubleTextReadsBackExactly) {
  const double values[] = {0.1,        1.0 / 3, 2.0 / 3,           1e-300, 5e-324, 1.7976931348623157e308,
                           123456.789, -9.5e15, 3.141592653589793, 1e21,   0.0};
  for (double value : values) {
    Datum back = evaluate(*cast(cast(floating(value), kText), kDouble));
    EXPECT_EQ(back.floating, value) << value;
  }
}

TEST_F(CastTest, VarcharToNumbers) {
  EXPECT_EQ(cast_text(text(" 42 "), kInt), "42");
  EXPECT_EQ(cast_text(text("-7"), kTiny), "-7");
  EXPECT_EQ(cast_text(text("+5"), kBig), "5");
  EXPECT_EQ(cast_text(text("007"), kBig), "7");
  EXPECT_EQ(cast_text(text("-9223372036854775808"), kBig), "-9223372036854775808");
  expect_error(text("abc"), kInt, ErrorCode::kTypeError, "cannot cast 'abc' to INTEGER");
  expect_error(text("1.5"), kInt, ErrorCode::kTypeError, "cannot cast '1.5' to INTEGER");
  expect_error(text(""), kBig, ErrorCode::kTypeError, "cannot cast '' to BIGINT");
  expect_error(text("-"), kBig, ErrorCode::kTypeError, "cannot cast '-' to BIGINT");
  expect_error(text("300"), kTiny, ErrorCode::kOverflow, "cannot cast '300' to TINYINT: out of range");
  expect_error(text("99999999999999999999"), kBig, ErrorCode::kOverflow,
               "cannot cast '99999999999999999999' to BIGINT: out of range");
  EXPECT_EQ(evaluate(*cast(text(" 1.5"), kDouble)).floating, 1.5);
  EXPECT_EQ(evaluate(*cast(text("1e3"), kDouble)).floating, 1000.0);
  EXPECT_EQ(evaluate(*cast(text("-0.1"), kReal)).floating, static_cast<double>(-0.1f));
  expect_error(text("x"), kDouble, ErrorCode::kTypeError, "cannot cast 'x' to DOUBLE");
  expect_error(text("1.5x"), kReal, ErrorCode::kTypeError, "cannot cast '1.5x' to REAL");
  EXPECT_EQ(cast_text(text("12.345"), SqlType::decimal(10, 2)), "12.35");
  EXPECT_EQ(cast_text(text("-12.345"), SqlType::decimal(10, 2)), "-12.35");
  EXPECT_EQ(cast_text(text("1e2"), SqlType::decimal(10, 2)), "100.00");
  EXPECT_EQ(cast_text(text("2.5E-1"), SqlType::decimal(10, 2)), "0.25");
  EXPECT_EQ(cast_text(text(".5"), SqlType::decimal(10, 2)), "0.50");
  EXPECT_EQ(cast_text(text("0.004"), SqlType::decimal(10, 2)), "0.00");
  EXPECT_EQ(cast_text(text("0.005"), SqlType::decimal(10, 2)), "0.01");
  EXPECT_EQ(cast_text(text("000123.4500"), SqlType::decimal(10, 2)), "123.45");
  expect_error(text("abc"), SqlType::decimal(10, 2), ErrorCode::kTypeError, "cannot cast 'abc' to DECIMAL(10, 2)");
  expect_error(text("1.2.3"), SqlType::decimal(10, 2), ErrorCode::kTypeError, "cannot cast '1.2.3' to DECIMAL(10, 2)");
  expect_error(text("123456789"), SqlType::decimal(5, 2), ErrorCode::kOverflow,
               "cannot cast '123456789' to DECIMAL(5, 2): out of range");
}

TEST_F(CastTest, VarcharToDateAndTimestamp) {
  EXPECT_EQ(cast_text(text("2024-02-29"), kDate), "2024-02-29");
  EXPECT_EQ(cast_text(text(" 1969-07-20 "), kDate), "1969-07-20");
  expect_error(text("2023-02-29"), kDate, ErrorCode::kTypeError, "cannot cast '2023-02-29' to DATE");
  expect_error(text("tomorrow"), kDate, ErrorCode::kTypeError, "cannot cast 'tomorrow' to DATE");
  EXPECT_EQ(cast_text(text(" 2024-01-02 10:00:00 "), kTimestamp), "2024-01-02 10:00:00");
  EXPECT_EQ(cast_text(text("2024-01-02T10:00:00.5"), kTimestamp), "2024-01-02 10:00:00.500");
  EXPECT_EQ(cast_text(text("2024-01-02"), kTimestamp), "2024-01-02 00:00:00");
  expect_error(text("2024-01-02 25:00:00"), kTimestamp, ErrorCode::kTypeError,
               "cannot cast '2024-01-02 25:00:00' to TIMESTAMP");
}

TEST_F(CastTest, DateAndTimestamp) {
  EXPECT_EQ(cast_text(date("2024-03-01"), kTimestamp), "2024-03-01 00:00:00");
  EXPECT_EQ(cast_text(date("1969-12-31"), kTimestamp), "1969-12-31 00:00:00");
  EXPECT_EQ(cast_text(timestamp("2024-03-01 23:59:59.999999"), kDate), "2024-03-01");
  EXPECT_EQ(cast_text(timestamp("1969-12-31 23:00:00"), kDate), "1969-12-31");  // floor, not toward zero
  EXPECT_EQ(cast_text(timestamp("1970-01-01 00:00:00"), kDate), "1970-01-01");
}

TEST_F(CastTest, VarcharLengthTruncatesByCodePoints) {
  EXPECT_EQ(cast_text(text("héllo wörld"), SqlType::varchar(true, 4)), "héll");
  EXPECT_EQ(cast_text(text("ab"), SqlType::varchar(true, 4)), "ab");
  EXPECT_EQ(cast_text(text("日本語テキスト"), SqlType::varchar(true, 3)), "日本語");
  EXPECT_EQ(cast_text(integer(12345), SqlType::varchar(true, 3)), "123");
}

TEST_F(CastTest, UnsupportedPairsFail) {
  expect_error(date("2024-01-01"), kDouble, ErrorCode::kTypeError, "cannot cast DATE to DOUBLE");
  expect_error(integer(1), kDate, ErrorCode::kTypeError, "cannot cast BIGINT to DATE");
  expect_error(boolean(true), SqlType::decimal(5, 0), ErrorCode::kTypeError, "cannot cast BOOLEAN to DECIMAL(5, 0)");
}

TEST_F(CastTest, NullStaysNull) {
  EXPECT_EQ(cast_text(null_of(kText), kInt), "NULL");
  EXPECT_EQ(cast_text(null_of(kBig), kText), "NULL");
  EXPECT_EQ(cast_text(null_of(kDate), kTimestamp), "NULL");
}

}  // namespace
}  // namespace freshet::sql
