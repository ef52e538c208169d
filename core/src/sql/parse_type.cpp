// Type names to SqlType: BOOLEAN, the integers, REAL, FLOAT / DOUBLE
// [PRECISION], DECIMAL / NUMERIC [(p [, s])], VARCHAR / CHAR [(n)], TEXT,
// STRING, DATE, TIMESTAMP, TIME [(p)], INTERVAL <qualifier>. The result is nullable; NOT NULL is a column
// constraint (parser.cpp).
#include <cstdint>
#include <limits>

#include "parser_internal.h"

namespace freshet::sql::detail {
namespace {

//! Feldera's DECIMAL without arguments.
constexpr uint8_t kDefaultDecimalPrecision = 28;

struct SimpleType {
  std::string_view name;
  TypeId id;
};

constexpr SimpleType kSimpleTypes[] = {
    {"boolean", TypeId::kBoolean},     {"bool", TypeId::kBoolean},   {"tinyint", TypeId::kTinyInt},
    {"smallint", TypeId::kSmallInt},   {"int", TypeId::kInt},        {"integer", TypeId::kInt},
    {"bigint", TypeId::kBigInt},       {"real", TypeId::kReal},      {"float", TypeId::kDouble},
    {"text", TypeId::kVarchar},        {"string", TypeId::kVarchar}, {"date", TypeId::kDate},
    {"timestamp", TypeId::kTimestamp},
};

//! `(p [, s])` after DECIMAL, checked against kMaxDecimalPrecision.
Result<SqlType> decimal_arguments(Parser& parser, SourcePosition type_position) {
  uint64_t precision = kDefaultDecimalPrecision, scale = 0;
  if (parser.accept(TokenKind::kLeftParen)) {
    constexpr uint64_t kLargest = 1000000;  // anything larger is reported as out of range below
    FRESHET_PARSE_ASSIGN(precision, parser.unsigned_integer("a DECIMAL precision", kLargest));
    if (parser.accept(TokenKind::kComma)) {
      FRESHET_PARSE_ASSIGN(scale, parser.unsigned_integer("a DECIMAL scale", kLargest));
    }
    FRESHET_RETURN_IF_ERROR(parser.expect(TokenKind::kRightParen, "')'"));
    std::string shown = "DECIMAL(" + std::to_string(precision) + ", " + std::to_string(scale) + ")";
    if (precision < 1 || precision > kMaxDecimalPrecision) {
      return sql_error_at(type_position,
                          shown + ": the precision must be between 1 and " + std::to_string(kMaxDecimalPrecision));
    }
    if (scale > precision) return sql_error_at(type_position, shown + ": the scale must not exceed the precision");
  }
  return SqlType::decimal(static_cast<uint8_t>(precision), static_cast<uint8_t>(scale));
}

//! `[(n)]` after VARCHAR or CHAR; a bare CHAR is CHAR(1) as in standard SQL.
Result<SqlType> string_length(Parser& parser, SourcePosition type_position, uint32_t default_length) {
  uint64_t length = default_length;
  if (parser.accept(TokenKind::kLeftParen)) {
    FRESHET_PARSE_ASSIGN(length, parser.unsigned_integer("a length", std::numeric_limits<uint32_t>::max()));
    FRESHET_RETURN_IF_ERROR(parser.expect(TokenKind::kRightParen, "')'"));
    if (length == 0) return sql_error_at(type_position, "a string type's length must be at least 1");
  }
  return SqlType::varchar(true, static_cast<uint32_t>(length));
}

}  // namespace

Result<SqlType> Parser::type() {
  const Token& token = current();
  SourcePosition position = token.position;
  if (token.kind != TokenKind::kIdentifier || token.quoted) return expected("a type");
  for (const SimpleType& simple : kSimpleTypes) {
    if (token.text == simple.name) {
      advance();
      SqlType type;
      type.id = simple.id;
      return type;
    }
  }
  if (accept_keyword("double")) {
    accept_keyword("precision");
    return SqlType::double_precision();
  }
  if (accept_keyword("decimal") || accept_keyword("numeric") || accept_keyword("dec")) {
    return decimal_arguments(*this, position);
  }
  if (accept_keyword("time")) {
    // TIME(p): the precision is accepted and ignored (TIME keeps microseconds; Feldera ignores it too).
    if (accept(TokenKind::kLeftParen)) {
      FRESHET_PARSE_ASSIGN(uint64_t ignored, unsigned_integer("a TIME precision", 9));
      (void)ignored;
      FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "')'"));
    }
    return SqlType::time();
  }
  if (accept_keyword("interval")) {
    uint32_t leading_precision = 0;
    return interval_qualifier(&leading_precision);
  }
  if (accept_keyword("varchar")) return string_length(*this, position, 0);
  if (accept_keyword("char") || accept_keyword("character")) {
    if (accept_keyword("varying")) return string_length(*this, position, 0);
    return string_length(*this, position, 1);
  }
  return expected("a type");
}

}  // namespace freshet::sql::detail
