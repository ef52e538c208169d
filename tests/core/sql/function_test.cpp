// Scalar functions (ABS, ROUND, LOWER, UPPER, CHAR_LENGTH, SUBSTRING, ||),
// LIKE and EXTRACT, with UTF-8 text and NULL arguments.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>

#include "sql/expression_support.h"

namespace freshet::sql {
namespace {

using namespace testing;  // NOLINT: the test helpers

class FunctionTest : public EvaluatorHarness {
 protected:
  void expect_error(const ExprPtr& expr, ErrorCode code, const std::string& message) {
    Status status = run_failing(expr);
    EXPECT_EQ(status.code(), code) << expr->to_string();
    EXPECT_EQ(status.message(), message) << expr->to_string();
  }
};

ExprPtr unary(ScalarFunction function, ExprPtr argument) {
  SqlType type = argument->type;
  if (function == ScalarFunction::kCharLength) type = SqlType::bigint();
  return call(function, type, exprs(std::move(argument)));
}

ExprPtr round_to(ExprPtr value, int64_t digits, SqlType type) {
  return call(ScalarFunction::kRound, type, exprs(std::move(value), integer(digits, SqlType::integer(false))));
}
ExprPtr round_to(ExprPtr value, int64_t digits) {
  SqlType type = value->type;
  return round_to(std::move(value), digits, type);
}

ExprPtr substring(std::string_view value, int64_t start) {
  return call(ScalarFunction::kSubstring, SqlType::varchar(), exprs(text(value), integer(start)));
}
ExprPtr substring(std::string_view value, int64_t start, int64_t length) {
  return call(ScalarFunction::kSubstring, SqlType::varchar(), exprs(text(value), integer(start), integer(length)));
}

TEST_F(FunctionTest, Abs) {
  EXPECT_EQ(run(unary(ScalarFunction::kAbs, integer(-5))), "5");
  EXPECT_EQ(run(unary(ScalarFunction::kAbs, integer(5))), "5");
  EXPECT_EQ(run(unary(ScalarFunction::kAbs, integer(-127, SqlType::tinyint(false)))), "127");
  EXPECT_EQ(run(unary(ScalarFunction::kAbs, floating(-1.5))), "1.5");
  EXPECT_EQ(run(unary(ScalarFunction::kAbs, decimal("-12.50", 10, 2))), "12.50");
  EXPECT_EQ(run(unary(ScalarFunction::kAbs, null_of(SqlType::bigint()))), "NULL");
  expect_error(unary(ScalarFunction::kAbs, integer(INT64_MIN)), ErrorCode::kOverflow,
               "integer overflow in abs(-9223372036854775808)");
  expect_error(unary(ScalarFunction::kAbs, integer(-2147483648, SqlType::integer(false))), ErrorCode::kOverflow,
               "integer overflow in abs(-2147483648)");
  expect_error(unary(ScalarFunction::kAbs, integer(-128, SqlType::tinyint(false))), ErrorCode::kOverflow,
               "integer overflow in abs(-128)");
}

TEST_F(FunctionTest, RoundDouble) {
  EXPECT_EQ(run(call(ScalarFunction::kRound, SqlType::double_precision(), exprs(floating(2.5)))), "3");
  EXPECT_EQ(run(call(ScalarFunction::kRound, SqlType::double_precision(), exprs(floating(-2.5)))), "-3");
  EXPECT_EQ(run(call(ScalarFunction::kRound, SqlType::double_precision(), exprs(floating(2.4)))), "2");
  EXPECT_EQ(run(round_to(floating(1.2345), 2)), "1.23");
  EXPECT_EQ(run(round_to(floating(-1.5), 0)), "-2");
  EXPECT_EQ(run(round_to(floating(1234.5), -2)), "1200");
  EXPECT_EQ(run(round_to(floating(1250), -2)), "1300");
  EXPECT_EQ(run(round_to(floating(1e300), 20)), "1.0000000000000001e+300");  // too many digits: unchanged
  EXPECT_EQ(run(round_to(floating(123), -400)), "0");
  EXPECT_EQ(run(round_to(floating(123), INT64_MIN)), "0");
  EXPECT_EQ(evaluate(*round_to(floating(0.125f, SqlType::real(false)), 2)).floating, static_cast<double>(0.13f));
  EXPECT_EQ(run(round_to(null_of(SqlType::double_precision()), 2)), "NULL");
}

TEST_F(FunctionTest, RoundDecimal) {
  EXPECT_EQ(run(round_to(decimal("1.235", 10, 3), 2, SqlType::decimal(10, 2))), "1.24");
  EXPECT_EQ(run(round_to(decimal("-1.235", 10, 3), 2, SqlType::decimal(10, 2))), "-1.24");
  EXPECT_EQ(run(round_to(decimal("1.235", 10, 3), 1, SqlType::decimal(10, 3))), "1.200");
  EXPECT_EQ(run(round_to(decimal("1.235", 10, 3), 5, SqlType::decimal(10, 3))), "1.235");
  EXPECT_EQ(run(call(ScalarFunction::kRound, SqlType::decimal(10, 0), exprs(decimal("1.5", 10, 1)))), "2");
  EXPECT_EQ(run(round_to(decimal("15.000", 10, 3), -1, SqlType::decimal(10, 0))), "20");
  EXPECT_EQ(run(round_to(decimal("-149.99", 10, 2), -2, SqlType::decimal(10, 2))), "-100.00");
  EXPECT_EQ(run(round_to(decimal("123.45", 10, 2), -50, SqlType::decimal(10, 0))), "0");
  EXPECT_EQ(run(round_to(decimal("123.45", 10, 2), INT64_MIN, SqlType::decimal(10, 0))), "0");
  EXPECT_EQ(run(round_to(decimal("123.45", 10, 2), INT64_MAX, SqlType::decimal(10, 2))), "123.45");
  expect_error(round_to(decimal("99.9", 3, 1), 0, SqlType::decimal(2, 0)), ErrorCode::kOverflow,
               "decimal overflow in round(99.9, 0)");
}

TEST_F(FunctionTest, RoundInteger) {
  EXPECT_EQ(run(round_to(integer(1234), -2)), "1200");
  EXPECT_EQ(run(round_to(integer(1250), -2)), "1300");
  EXPECT_EQ(run(round_to(integer(-1250), -2)), "-1300");
  EXPECT_EQ(run(round_to(integer(-1249), -2)), "-1200");
  EXPECT_EQ(run(round_to(integer(5), 1)), "5");
  EXPECT_EQ(run(call(ScalarFunction::kRound, SqlType::bigint(), exprs(integer(7)))), "7");
  EXPECT_EQ(run(round_to(integer(INT64_MAX), -30)), "0");
  EXPECT_EQ(run(round_to(integer(INT64_MAX), INT64_MIN)), "0");
  expect_error(round_to(integer(INT64_MAX), -1), ErrorCode::kOverflow,
               "integer overflow in round(9223372036854775807, -1)");
  expect_error(round_to(integer(125, SqlType::tinyint(false)), -1), ErrorCode::kOverflow,
               "integer overflow in round(125, -1)");
}

TEST_F(FunctionTest, LowerAndUpperMapAllOfUnicode) {
  EXPECT_EQ(run(unary(ScalarFunction::kLower, text("HeLLo É 123"))), "hello é 123");
  EXPECT_EQ(run(unary(ScalarFunction::kUpper, text("HeLLo é [z] ß"))), "HELLO É [Z] SS");
  EXPECT_EQ(run(unary(ScalarFunction::kUpper, text(""))), "");
  EXPECT_EQ(run(unary(ScalarFunction::kLower, null_of(SqlType::varchar()))), "NULL");
}

TEST_F(FunctionTest, CharLengthCountsCodePoints) {
  EXPECT_EQ(run(unary(ScalarFunction::kCharLength, text("hello"))), "5");
  EXPECT_EQ(run(unary(ScalarFunction::kCharLength, text("héllo"))), "5");
  EXPECT_EQ(run(unary(ScalarFunction::kCharLength, text("日本語"))), "3");
  EXPECT_EQ(run(unary(ScalarFunction::kCharLength, text("\xF0\x9F\x98\x80"
                                                        "a"))),
            "2");  // emoji + 'a'
  EXPECT_EQ(run(unary(ScalarFunction::kCharLength, text(""))), "0");
  EXPECT_EQ(run(unary(ScalarFunction::kCharLength, null_of(SqlType::varchar()))), "NULL");
}

TEST_F(FunctionTest, SubstringUsesSqlPositions) {
  EXPECT_EQ(run(substring("abcdef", 2, 3)), "bcd");
  EXPECT_EQ(run(substring("abcdef", 1, 6)), "abcdef");
  EXPECT_EQ(run(substring("abcdef", 0, 3)), "ab");  // position 0 counts against the length
  EXPECT_EQ(run(substring("abcdef", -1, 3)), "a");
  EXPECT_EQ(run(substring("abcdef", -5, 3)), "");
  EXPECT_EQ(run(substring("abcdef", 3)), "cdef");
  EXPECT_EQ(run(substring("abcdef", -3)), "abcdef");
  EXPECT_EQ(run(substring("abcdef", 10)), "");
  EXPECT_EQ(run(substring("abcdef", 5, 10)), "ef");
  EXPECT_EQ(run(substring("abcdef", 2, 0)), "");
  EXPECT_EQ(run(substring("abcdef", 2, INT64_MAX)), "bcdef");
  EXPECT_EQ(run(substring("abcdef", INT64_MIN, INT64_MAX)), "");
  EXPECT_EQ(run(substring("héllo", 2, 2)), "él");
  EXPECT_EQ(run(substring("日本語テキスト", 3)), "語テキスト");
  EXPECT_EQ(run(substring("", 1, 1)), "");
  EXPECT_EQ(run(call(ScalarFunction::kSubstring, SqlType::varchar(), exprs(text("abc"), null_of(SqlType::bigint())))),
            "NULL");
  expect_error(substring("abcdef", 2, -1), ErrorCode::kInvalidArgument,
               "negative substring length not allowed in substring('abcdef', 2, -1)");
}

TEST_F(FunctionTest, Concat) {
  auto concat = [](ExprPtr left, ExprPtr right) {
    return call(ScalarFunction::kConcat, SqlType::varchar(), exprs(std::move(left), std::move(right)));
  };
  EXPECT_EQ(run(concat(text("ab"), text("cd"))), "abcd");
  EXPECT_EQ(run(concat(text(""), text("x"))), "x");
  EXPECT_EQ(run(concat(text("é"), text(""))), "é");
  EXPECT_EQ(run(concat(concat(text("a"), text("b")), concat(text("c"), text("d")))), "abcd");
  EXPECT_EQ(run(concat(text("a"), null_of(SqlType::varchar()))), "NULL");
  EXPECT_EQ(run(concat(null_of(SqlType::varchar()), text("a"))), "NULL");
}

TEST_F(FunctionTest, Like) {
  struct Case {
    const char* value;
    const char* pattern;
    bool matches;
  };
  const Case cases[] = {
      {"abc", "abc", true},
      {"abc", "ab", false},
      {"abc", "a%", true},
      {"abc", "%c", true},
      {"abc", "%b%", true},
      {"abc", "%", true},
      {"", "%", true},
      {"", "", true},
      {"a", "", false},
      {"", "_", false},
      {"abc", "a_c", true},
      {"ac", "a_c", false},
      {"abc", "___", true},
      {"abc", "__", false},
      {"é", "_", true},
      {"aéb", "a_b", true},
      {"日本語", "_本_", true},
      {"aXbYc", "a%b%c", true},
      {"abc", "a%b%c", true},
      {"aXbY", "a%b%c", false},
      {"ABC", "abc", false},
      {"abcabc", "%bc", true},
      {"mississippi", "%issip%", true},
      {"mississippi", "m%ss%pi", true},
      {"mississippi", "m%ss%pix", false},
      {"a%b", "a%b", true},
      {"abab", "%ab", true},
      {"ab", "%%%", true},
      {"abc", "%_", true},
      {"", "%_", false},
      {"aaa", "a%aa", true},
      {"aa", "a%aa", false},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(run(like(text(c.value), text(c.pattern))), c.matches ? "TRUE" : "FALSE")
        << "'" << c.value << "' LIKE '" << c.pattern << "'";
    EXPECT_EQ(run(like(text(c.value), text(c.pattern), true)), c.matches ? "FALSE" : "TRUE")
        << "'" << c.value << "' NOT LIKE '" << c.pattern << "'";
  }
  EXPECT_EQ(run(like(null_of(SqlType::varchar()), text("%"))), "NULL");
  EXPECT_EQ(run(like(text("a"), null_of(SqlType::varchar()), true)), "NULL");
}

TEST_F(FunctionTest, LikeHasNoExponentialBacktracking) {
  std::string value(100000, 'a');
  std::string pattern;
  for (int i = 0; i < 30; ++i) pattern += "a%";
  pattern += "b";
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(run(like(text(value), text(pattern))), "FALSE");
  EXPECT_EQ(run(like(text(value + "b"), text(pattern))), "TRUE");
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 5.0);
}

TEST_F(FunctionTest, Extract) {
  EXPECT_EQ(run(extract(ExtractField::kYear, date("2024-03-15"))), "2024");
  EXPECT_EQ(run(extract(ExtractField::kMonth, date("2024-03-15"))), "3");
  EXPECT_EQ(run(extract(ExtractField::kDay, date("2024-03-15"))), "15");
  EXPECT_EQ(run(extract(ExtractField::kYear, date("1969-12-31"))), "1969");
  EXPECT_EQ(run(extract(ExtractField::kYear, timestamp("2024-01-02 10:20:30"))), "2024");
  EXPECT_EQ(run(extract(ExtractField::kMonth, timestamp("2024-01-02 10:20:30"))), "1");
  EXPECT_EQ(run(extract(ExtractField::kDay, timestamp("2024-01-02 10:20:30"))), "2");
  EXPECT_EQ(run(extract(ExtractField::kHour, timestamp("2024-01-02 10:20:30"))), "10");
  EXPECT_EQ(run(extract(ExtractField::kHour, timestamp("2024-01-02 00:59:59.999"))), "0");
  // Before 1970 the day is the floor, not truncation toward zero.
  EXPECT_EQ(run(extract(ExtractField::kDay, timestamp("1969-12-31 23:30:00"))), "31");
  EXPECT_EQ(run(extract(ExtractField::kHour, timestamp("1969-12-31 23:30:00"))), "23");
  EXPECT_EQ(run(extract(ExtractField::kYear, null_of(SqlType::date()))), "NULL");
}

}  // namespace
}  // namespace freshet::sql
