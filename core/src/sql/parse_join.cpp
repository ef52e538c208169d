// Joins in FROM: `[NATURAL] [INNER | LEFT | RIGHT | FULL [OUTER]] JOIN t
// [ON cond | USING (a, b)]` and `CROSS JOIN t`, left-associative (Feldera's
// grammar). CROSS/OUTER APPLY and [LEFT] ASOF JOIN are named and refused.
#include "parser_internal.h"

namespace freshet::sql::detail {

bool Parser::at_join() const {
  if (at_keyword("outer") && is_keyword(peek(1), "apply")) return true;
  if (at_keyword("asof") && is_keyword(peek(1), "join")) return true;
  return at_keyword("cross") || at_keyword("left") || at_keyword("right") || at_keyword("full") ||
         at_keyword("inner") || at_keyword("join") || at_keyword("natural");
}

Result<TableRefPtr> Parser::join(TableRefPtr left) {
  auto join = std::make_unique<TableRef>();
  join->kind = TableRef::Kind::kJoin;
  join->position = left->position;
  SourcePosition natural_position = current().position;
  join->natural = accept_keyword("natural");
  if (at_keyword("asof") || (at_keyword("left") && is_keyword(peek(1), "asof"))) {
    return sql_error_at(current().position, "ASOF JOIN is not supported");
  }
  if (at_keyword("cross") || at_keyword("outer")) {
    if (is_keyword(peek(1), "apply")) {
      return sql_error_at(current().position, at_keyword("cross") ? "CROSS APPLY is not supported; use CROSS JOIN"
                                                                  : "OUTER APPLY is not supported; use LEFT JOIN");
    }
    if (join->natural) return sql_error_at(natural_position, "NATURAL CROSS JOIN is not valid: use CROSS JOIN");
    advance();
    join->join_type = JoinType::kCross;
  } else if (accept_keyword("left")) {
    join->join_type = JoinType::kLeft;
    accept_keyword("outer");
  } else if (accept_keyword("right")) {
    join->join_type = JoinType::kRight;
    accept_keyword("outer");
  } else if (accept_keyword("full")) {
    join->join_type = JoinType::kFull;
    accept_keyword("outer");
  } else {
    accept_keyword("inner");
  }
  FRESHET_RETURN_IF_ERROR(expect_keyword("join"));
  FRESHET_PARSE_ASSIGN(join->right, table_primary());
  join->left = std::move(left);
  if (join->join_type == JoinType::kCross || join->natural) {
    if (at_keyword("on") || at_keyword("using")) {
      return sql_error_at(current().position, std::string(join->natural ? "a NATURAL" : "a CROSS") +
                                                  " join takes no ON or USING condition");
    }
    return join;
  }
  if (accept_keyword("using")) {
    FRESHET_RETURN_IF_ERROR(expect(TokenKind::kLeftParen, "'('"));
    do {
      join->using_positions.push_back(current().position);
      FRESHET_PARSE_ASSIGN(std::string column, name("a column name"));
      join->using_columns.push_back(std::move(column));
    } while (accept(TokenKind::kComma));
    FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "',' or ')'"));
    return join;
  }
  if (!accept_keyword("on")) return expected("ON or USING after the joined table");
  FRESHET_PARSE_ASSIGN(join->condition, expression());
  return join;
}

}  // namespace freshet::sql::detail
