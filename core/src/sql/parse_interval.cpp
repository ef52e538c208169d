// Interval syntax: literals (`INTERVAL '1 02:03' DAY TO MINUTE`, `INTERVAL 1
// DAYS`), qualifiers (also the type `INTERVAL HOUR TO SECOND`), and the
// datetime difference `(t1 - t2) MINUTE` (Calcite's, as Feldera writes it).
#include "freshet/types/interval.h"
#include "parser_internal.h"

namespace freshet::sql::detail {
namespace {

struct UnitWord {
  std::string_view singular, plural;
  IntervalUnit unit;
};

constexpr UnitWord kUnitWords[] = {
    {"year", "years", IntervalUnit::kYear},       {"month", "months", IntervalUnit::kMonth},
    {"day", "days", IntervalUnit::kDay},          {"hour", "hours", IntervalUnit::kHour},
    {"minute", "minutes", IntervalUnit::kMinute}, {"second", "seconds", IntervalUnit::kSecond},
};

IntervalUnit unit_of(const Token& token) {
  if (token.kind != TokenKind::kIdentifier || token.quoted) return IntervalUnit::kNone;
  for (const UnitWord& word : kUnitWords) {
    if (token.text == word.singular || token.text == word.plural) return word.unit;
  }
  return IntervalUnit::kNone;
}

bool is_year_month(IntervalUnit unit) { return unit == IntervalUnit::kYear || unit == IntervalUnit::kMonth; }

//! Calcite's largest leading-field precision.
constexpr uint64_t kMaxLeadingPrecision = 10;

}  // namespace

bool Parser::at_interval_unit() const { return unit_of(current()) != IntervalUnit::kNone; }

Result<SqlType> Parser::interval_qualifier(uint32_t* leading_precision) {
  SourcePosition position = current().position;
  IntervalUnit start = unit_of(current());
  if (start == IntervalUnit::kNone) return expected("an interval unit (YEAR, MONTH, DAY, HOUR, MINUTE or SECOND)");
  advance();
  *leading_precision = 0;
  if (accept(TokenKind::kLeftParen)) {
    FRESHET_PARSE_ASSIGN(uint64_t precision, unsigned_integer("an interval precision", kMaxLeadingPrecision));
    if (precision == 0) return sql_error_at(position, "an interval's precision must be between 1 and 10");
    *leading_precision = static_cast<uint32_t>(precision);
    // SECOND(p, s): the fraction's precision is accepted and ignored (microseconds are kept).
    if (start == IntervalUnit::kSecond && accept(TokenKind::kComma)) {
      FRESHET_PARSE_ASSIGN(uint64_t ignored, unsigned_integer("a fractional second precision", 9));
      (void)ignored;
    }
    FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "')'"));
  }
  IntervalUnit end = start;
  if (accept_keyword("to")) {
    end = unit_of(current());
    if (end == IntervalUnit::kNone) return expected("an interval unit after TO");
    advance();
    if (end == IntervalUnit::kSecond && accept(TokenKind::kLeftParen)) {
      FRESHET_PARSE_ASSIGN(uint64_t ignored, unsigned_integer("a fractional second precision", 9));
      (void)ignored;
      FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "')'"));
    }
    if (end <= start || is_year_month(start) != is_year_month(end)) {
      return sql_error_at(position, std::string("INTERVAL ") + interval_unit_name(start) + " TO " +
                                        interval_unit_name(end) + " is not a valid interval qualifier");
    }
  }
  return is_year_month(start) ? SqlType::interval_year_month(start, end) : SqlType::interval_day_time(start, end);
}

Result<AstExprPtr> Parser::interval_literal() {
  SourcePosition position = advance().position;  // INTERVAL
  bool negate = false;
  if (at(TokenKind::kMinus) || at(TokenKind::kPlus)) negate = advance().kind == TokenKind::kMinus;
  const Token& value = current();
  if (value.kind != TokenKind::kString && value.kind != TokenKind::kInteger && value.kind != TokenKind::kDecimal) {
    return expected("an interval's value, as in INTERVAL '1' DAY");
  }
  std::string text = advance().text;
  if (negate) {
    // A sign before the quotes flips the one inside them.
    if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
      text[0] = text[0] == '-' ? '+' : '-';
    } else {
      text.insert(text.begin(), '-');
    }
  }
  uint32_t leading_precision = 0;
  FRESHET_PARSE_ASSIGN(SqlType type, interval_qualifier(&leading_precision));
  Result<int64_t> checked = parse_interval(text, type, leading_precision);
  if (!checked.ok()) return sql_error_at(position, checked.status().message());
  AstExprPtr literal = make_expr(AstExprKind::kLiteral, position);
  literal->literal_kind = LiteralKind::kInterval;
  literal->text = std::move(text);
  literal->cast_type = type;
  return literal;
}

Result<AstExprPtr> Parser::datetime_difference(AstExprPtr inner) {
  if (inner->kind != AstExprKind::kBinary || inner->op != AstOperator::kSubtract) {
    // `(x) day` may be an alias after all; only a difference takes a qualifier.
    return inner;
  }
  uint32_t leading_precision = 0;
  FRESHET_PARSE_ASSIGN(SqlType type, interval_qualifier(&leading_precision));
  AstExprPtr node = make_expr(AstExprKind::kDatetimeDifference, inner->position);
  node->operator_position = inner->operator_position;
  node->cast_type = type;
  node->children = std::move(inner->children);
  return node;
}

}  // namespace freshet::sql::detail
