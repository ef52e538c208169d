// Time units and the calls that take one (Feldera's syntax, which is
// Calcite's): the unit is a keyword, never a string or a column.
//   unit first:  TIMESTAMPADD(unit, n, x)  TIMESTAMPDIFF(unit, a, b)
//                DATEDIFF(unit, a, b)      DATE_PART(unit, x)
//   unit last:   DATE_TRUNC(x, unit)  TIMESTAMP_TRUNC(x, unit)  TIME_TRUNC(x, unit)
//   TO unit:     FLOOR(x [TO unit])   CEIL(x [TO unit])   CEILING(x [TO unit])
// PostgreSQL's forms (date_trunc('hour', ts), date_part('year', ts)) parse as
// ordinary arguments without a unit, so the binder can answer with the
// Feldera form, which needs the argument's type.
#include "parser_internal.h"

namespace freshet::sql::detail {
namespace {

constexpr const char* kUnitList = "a time unit (YEAR, QUARTER, MONTH, WEEK, DAY, HOUR, MINUTE, SECOND, ...)";

bool is_unit_first(const std::string& name) {
  return name == "timestampadd" || name == "timestampdiff" || name == "datediff" || name == "date_part";
}

bool is_unit_last(const std::string& name) {
  return name == "date_trunc" || name == "timestamp_trunc" || name == "time_trunc";
}

bool is_floor_or_ceil(const std::string& name) { return name == "floor" || name == "ceil" || name == "ceiling"; }

}  // namespace

bool Parser::at_time_unit() const {
  return current().kind == TokenKind::kIdentifier && !current().quoted && time_unit_from_name(current().text);
}

Result<TimeUnit> Parser::time_unit() {
  if (!at_time_unit()) return expected(kUnitList);
  return *time_unit_from_name(advance().text);
}

bool Parser::is_time_unit_call(const std::string& name) {
  return is_unit_first(name) || is_unit_last(name) || is_floor_or_ceil(name);
}

Result<AstExprPtr> Parser::time_unit_call() {
  Nesting nesting(*this);
  FRESHET_RETURN_IF_ERROR(nesting.check());
  AstExprPtr call = make_expr(AstExprKind::kFunction, current().position);
  call->name = advance().text;
  advance();  // '('
  if (is_unit_first(call->name)) return unit_first_call(std::move(call));
  FRESHET_PARSE_ASSIGN(AstExprPtr operand, expression());
  call->children.push_back(std::move(operand));
  if (is_floor_or_ceil(call->name)) {
    if (accept_keyword("to")) {
      call->unit_position = current().position;
      FRESHET_PARSE_ASSIGN(call->unit, time_unit());
    }
    FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, call->unit ? "')'" : "'TO' or ')'"));
    return call;
  }
  FRESHET_RETURN_IF_ERROR(expect(TokenKind::kComma, "','"));
  if (at_time_unit() && peek(1).kind == TokenKind::kRightParen) {
    call->unit_position = current().position;
    FRESHET_PARSE_ASSIGN(call->unit, time_unit());
  } else {
    FRESHET_PARSE_ASSIGN(AstExprPtr second, expression());
    call->children.push_back(std::move(second));
  }
  FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "')'"));
  return call;
}

//! After `name(`: the unit, then the arguments. DATE_PART(unit, x) is EXTRACT.
Result<AstExprPtr> Parser::unit_first_call(AstExprPtr call) {
  bool unit_given = at_time_unit() && peek(1).kind == TokenKind::kComma;
  std::string unit_keyword = current().text;
  if (unit_given) {
    call->unit_position = current().position;
    FRESHET_PARSE_ASSIGN(call->unit, time_unit());
    advance();  // ','
  } else if (!at(TokenKind::kString)) {
    return expected(kUnitList);
  }
  do {
    FRESHET_PARSE_ASSIGN(AstExprPtr argument, expression());
    call->children.push_back(std::move(argument));
  } while (accept(TokenKind::kComma));
  FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "',' or ')'"));
  if (call->name == "date_part" && unit_given) {
    call->kind = AstExprKind::kExtract;
    call->name = unit_keyword;
  }
  return call;
}

}  // namespace freshet::sql::detail
