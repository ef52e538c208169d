// Arithmetic: integers (64-bit with narrow range checks), REAL/DOUBLE, exact
// DECIMAL, NULL propagation, and every error with its exact message.
#include <gtest/gtest.h>

#include <cmath>

#include "sql/expression_support.h"

namespace freshet::sql {
namespace {

using namespace testing;  // NOLINT: the test helpers

class EvaluatorArithmeticTest : public EvaluatorHarness {
 protected:
  void expect_error(const ExprPtr& expr, ErrorCode code, const std::string& message) {
    Status status = run_failing(expr);
    EXPECT_EQ(status.code(), code) << expr->to_string();
    EXPECT_EQ(status.message(), message) << expr->to_string();
  }
};

constexpr AstOperator kAdd = AstOperator::kAdd;
constexpr AstOperator kSub = AstOperator::kSubtract;
constexpr AstOperator kMul = AstOperator::kMultiply;
constexpr AstOperator kDiv = AstOperator::kDivide;
constexpr AstOperator kMod = AstOperator::kModulo;

TEST_F(EvaluatorArithmeticTest, Integers) {
  EXPECT_EQ(run(arithmetic(kAdd, integer(7), integer(3))), "10");
  EXPECT_EQ(run(arithmetic(kSub, integer(3), integer(7))), "-4");
  EXPECT_EQ(run(arithmetic(kMul, integer(-7), integer(3))), "-21");
  EXPECT_EQ(run(arithmetic(kDiv, integer(7), integer(2))), "3");
  EXPECT_EQ(run(arithmetic(kDiv, integer(-7), integer(2))), "-3");  // toward zero
  EXPECT_EQ(run(arithmetic(kMod, integer(7), integer(3))), "1");
  EXPECT_EQ(run(arithmetic(kMod, integer(-7), integer(3))), "-1");  // sign of the dividend
  EXPECT_EQ(run(arithmetic(kMod, integer(7), integer(-3))), "1");
  EXPECT_EQ(run(arithmetic(kMod, integer(INT64_MIN), integer(-1))), "0");
  EXPECT_EQ(run(negate(integer(5))), "-5");
  EXPECT_EQ(run(arithmetic(kAdd, integer(100, SqlType::tinyint(false)), integer(27, SqlType::tinyint(false)))), "127");
}

TEST_F(EvaluatorArithmeticTest, IntegerOverflowFails) {
  expect_error(arithmetic(kAdd, integer(INT64_MAX), integer(1)), ErrorCode::kOverflow,
               "integer overflow in (9223372036854775807 + 1)");
  expect_error(arithmetic(kSub, integer(INT64_MIN), integer(1)), ErrorCode::kOverflow,
               "integer overflow in (-9223372036854775808 - 1)");
  expect_error(arithmetic(kMul, integer(INT64_MIN), integer(-1)), ErrorCode::kOverflow,
               "integer overflow in (-9223372036854775808 * -1)");
  expect_error(arithmetic(kDiv, integer(INT64_MIN), integer(-1)), ErrorCode::kOverflow,
               "integer overflow in (-9223372036854775808 / -1)");
  expect_error(negate(integer(INT64_MIN)), ErrorCode::kOverflow, "integer overflow in (-(-9223372036854775808))");
  SqlType tiny = SqlType::tinyint(false), small = SqlType::smallint(false), int32 = SqlType::integer(false);
  expect_error(arithmetic(kAdd, integer(100, tiny), integer(100, tiny)), ErrorCode::kOverflow,
               "integer overflow in (100 + 100)");
  expect_error(negate(integer(-128, tiny)), ErrorCode::kOverflow, "integer overflow in (-(-128))");
  expect_error(arithmetic(kMul, integer(200, small), integer(200, small)), ErrorCode::kOverflow,
               "integer overflow in (200 * 200)");
  expect_error(arithmetic(kAdd, integer(2147483647, int32), integer(1, int32)), ErrorCode::kOverflow,
               "integer overflow in (2147483647 + 1)");
  expect_error(arithmetic(kDiv, integer(-2147483648, int32), integer(-1, int32)), ErrorCode::kOverflow,
               "integer overflow in (-2147483648 / -1)");
}

TEST_F(EvaluatorArithmeticTest, DivisionByZeroFails) {
  expect_error(arithmetic(kDiv, integer(1), integer(0)), ErrorCode::kInvalidArgument, "division by zero in (1 / 0)");
  expect_error(arithmetic(kMod, integer(1), integer(0)), ErrorCode::kInvalidArgument, "division by zero in (1 % 0)");
  expect_error(arithmetic(kDiv, floating(1), floating(0)), ErrorCode::kInvalidArgument, "division by zero in (1 / 0)");
  expect_error(arithmetic(kDiv, floating(0), floating(-0.0)), ErrorCode::kInvalidArgument,
               "division by zero in (0 / -0)");
  expect_error(arithmetic(kMod, floating(1), floating(0)), ErrorCode::kInvalidArgument, "division by zero in (1 % 0)");
  expect_error(arithmetic(kDiv, decimal("1.00", 10, 2), decimal("0.00", 10, 2), SqlType::decimal(20, 6)),
               ErrorCode::kInvalidArgument, "division by zero in (1.00 / 0.00)");
  expect_error(arithmetic(kMod, decimal("1.00", 10, 2), decimal("0.00", 10, 2)), ErrorCode::kInvalidArgument,
               "division by zero in (1.00 % 0.00)");
}

TEST_F(EvaluatorArithmeticTest, NullPropagates) {
  EXPECT_EQ(run(arithmetic(kAdd, null_of(SqlType::bigint()), integer(1))), "NULL");
  EXPECT_EQ(run(arithmetic(kMul, integer(1), null_of(SqlType::bigint()))), "NULL");
  EXPECT_EQ(run(arithmetic(kDiv, null_of(SqlType::bigint()), integer(0))), "NULL");  // no error either
  EXPECT_EQ(run(negate(null_of(SqlType::double_precision()))), "NULL");
  EXPECT_EQ(run(arithmetic(kAdd, null_of(SqlType::decimal(10, 2)), decimal("1.00", 10, 2))), "NULL");
}

TEST_F(EvaluatorArithmeticTest, Floating) {
  EXPECT_EQ(run(arithmetic(kAdd, floating(1.5), floating(2.25))), "3.75");
  EXPECT_EQ(run(arithmetic(kSub, floating(1.5), floating(2.25))), "-0.75");
  EXPECT_EQ(run(arithmetic(kMul, floating(1.5), floating(-2))), "-3");
  EXPECT_EQ(run(arithmetic(kDiv, floating(1), floating(4))), "0.25");
  EXPECT_EQ(run(arithmetic(kMod, floating(7.5), floating(2))), "1.5");
  EXPECT_EQ(run(arithmetic(kMod, floating(-7.5), floating(2))), "-1.5");
  EXPECT_EQ(run(negate(floating(2.5))), "-2.5");
  // REAL results are rounded to float.
  SqlType real = SqlType::real(false);
  Datum sum = evaluate(*arithmetic(kAdd, floating(0.1f, real), floating(0.2f, real)));
  EXPECT_EQ(sum.floating, static_cast<double>(0.1f + 0.2f));
  Datum third = evaluate(*arithmetic(kDiv, floating(1, real), floating(3, real)));
  EXPECT_EQ(third.floating, static_cast<double>(1.0f / 3.0f));
}

TEST_F(EvaluatorArithmeticTest, DecimalAdditionIsExact) {
  EXPECT_EQ(run(arithmetic(kAdd, decimal("0.1", 10, 1), decimal("0.2", 10, 1))), "0.3");
  EXPECT_EQ(run(arithmetic(kSub, decimal("0.10", 10, 2), decimal("0.30", 10, 2))), "-0.20");
  EXPECT_EQ(run(arithmetic(kMod, decimal("5.5", 10, 1), decimal("2.0", 10, 1))), "1.5");
  EXPECT_EQ(run(arithmetic(kMod, decimal("-5.5", 10, 1), decimal("2.0", 10, 1))), "-1.5");
  EXPECT_EQ(run(negate(decimal("12.50", 10, 2))), "-12.50");
  EXPECT_EQ(run(arithmetic(kAdd, decimal("99999999999999999999999999999999999.999", 38, 3), decimal("0.000", 38, 3))),
            "99999999999999999999999999999999999.999");
}

TEST_F(EvaluatorArithmeticTest, DecimalMultiplicationRescales) {
  EXPECT_EQ(run(arithmetic(kMul, decimal("1.25", 5, 2), decimal("2.5", 5, 1), SqlType::decimal(10, 3))), "3.125");
  EXPECT_EQ(run(arithmetic(kMul, decimal("1.25", 5, 2), decimal("2.5", 5, 1), SqlType::decimal(10, 2))), "3.13");
  EXPECT_EQ(run(arithmetic(kMul, decimal("-1.25", 5, 2), decimal("2.5", 5, 1), SqlType::decimal(10, 2))), "-3.13");
  EXPECT_EQ(run(arithmetic(kMul, decimal("3", 5, 0), decimal("4", 5, 0), SqlType::decimal(10, 2))), "12.00");
  EXPECT_EQ(run(arithmetic(kMul, decimal("0.1", 5, 1), decimal("0.1", 5, 1), SqlType::decimal(10, 2))), "0.01");
}

TEST_F(EvaluatorArithmeticTest, DecimalDivisionRoundsHalfAwayFromZero) {
  SqlType result = SqlType::decimal(20, 6);
  EXPECT_EQ(run(arithmetic(kDiv, decimal("1", 10, 0), decimal("3", 10, 0), result)), "0.333333");
  EXPECT_EQ(run(arithmetic(kDiv, decimal("2", 10, 0), decimal("3", 10, 0), result)), "0.666667");
  EXPECT_EQ(run(arithmetic(kDiv, decimal("-2", 10, 0), decimal("3", 10, 0), result)), "-0.666667");
  EXPECT_EQ(run(arithmetic(kDiv, decimal("2", 10, 0), decimal("-3", 10, 0), result)), "-0.666667");
  EXPECT_EQ(run(arithmetic(kDiv, decimal("1.00", 10, 2), decimal("0.08", 10, 2), result)), "12.500000");
  EXPECT_EQ(run(arithmetic(kDiv, decimal("10", 10, 0), decimal("0.5", 10, 1), SqlType::decimal(10, 0))), "20");
  // The exponent rs - s1 + s2 is negative: divide first, then round once.
  SqlType two = SqlType::decimal(10, 2);
  EXPECT_EQ(run(arithmetic(kDiv, decimal("1.000000", 20, 6), decimal("3", 10, 0), two)), "0.33");
  EXPECT_EQ(run(arithmetic(kDiv, decimal("2.000000", 20, 6), decimal("3", 10, 0), two)), "0.67");
  EXPECT_EQ(run(arithmetic(kDiv, decimal("0.050000", 20, 6), decimal("2", 10, 0), two)), "0.03");  // 0.025 → 0.03
  EXPECT_EQ(run(arithmetic(kDiv, decimal("-0.050000", 20, 6), decimal("2", 10, 0), two)), "-0.03");
}

TEST_F(EvaluatorArithmeticTest, DecimalOverflowFails) {
  expect_error(arithmetic(kAdd, decimal("999", 3, 0), decimal("1", 3, 0)), ErrorCode::kOverflow,
               "decimal overflow in (999 + 1)");
  expect_error(arithmetic(kMul, decimal("99999", 5, 0), decimal("99999", 5, 0), SqlType::decimal(9, 0)),
               ErrorCode::kOverflow, "decimal overflow in (99999 * 99999)");
  expect_error(arithmetic(kDiv, decimal("1", 5, 0), decimal("0.001", 5, 3), SqlType::decimal(4, 2)),
               ErrorCode::kOverflow, "decimal overflow in (1 / 0.001)");
  std::string big(38, '9');
  // The 128-bit product itself overflows.
  expect_error(arithmetic(kMul, decimal(big, 38, 0), decimal(big, 38, 0), SqlType::decimal(38, 0)),
               ErrorCode::kOverflow, "decimal overflow in (" + big + " * " + big + ")");
}

}  // namespace
}  // namespace freshet::sql
