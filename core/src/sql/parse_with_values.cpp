// WITH (common table expressions) and VALUES, the two query forms that are
// neither a SELECT nor a set operation.
#include "parser_internal.h"

namespace freshet::sql::detail {

//! `WITH name [(columns)] AS (query), ... query`. The items attach to the
//! query after them; an inner WITH's items come after the outer ones, so a
//! lookup from the last item back finds the innermost definition.
Result<Query> Parser::with_query() {
  advance();  // WITH
  if (at_keyword("recursive")) {
    return sql_error_at(current().position,
                        "RECURSIVE common table expressions are not supported (Feldera writes recursive queries "
                        "as views declared with DECLARE RECURSIVE VIEW, which Freshet does not have yet)");
  }
  std::vector<CommonTableExpression> items;
  do {
    CommonTableExpression item;
    item.position = current().position;
    FRESHET_PARSE_ASSIGN(item.name, name("a name for the WITH item"));
    for (const CommonTableExpression& earlier : items) {
      if (earlier.name == item.name) return sql_error_at(item.position, "WITH defines '" + item.name + "' twice");
    }
    if (at(TokenKind::kLeftParen)) {
      FRESHET_PARSE_ASSIGN(item.column_names, name_list("a column name"));
    }
    FRESHET_RETURN_IF_ERROR(expect_keyword("as"));
    FRESHET_RETURN_IF_ERROR(expect(TokenKind::kLeftParen, "'(' and the WITH item's query"));
    FRESHET_PARSE_ASSIGN(Query query_value, query());
    item.query = std::make_unique<Query>(std::move(query_value));
    FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "')'"));
    items.push_back(std::move(item));
  } while (accept(TokenKind::kComma));
  FRESHET_PARSE_ASSIGN(Query body, query());
  for (CommonTableExpression& inner : body.with) items.push_back(std::move(inner));
  body.with = std::move(items);
  return body;
}

//! `VALUES (a, b), (c, d)` (or `VALUE`); a row of one column may drop its
//! parentheses (`VALUES 1, 2`), and `ROW(a, b)` is a row too.
Result<Query> Parser::values_query() {
  Query result;
  result.position = advance().position;  // VALUES
  do {
    SourcePosition row_position = current().position;
    std::vector<AstExprPtr> row;
    if (at_keyword("row") && peek(1).kind == TokenKind::kLeftParen) advance();
    if (accept(TokenKind::kLeftParen)) {
      do {
        FRESHET_PARSE_ASSIGN(AstExprPtr value, expression());
        row.push_back(std::move(value));
      } while (accept(TokenKind::kComma));
      FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "',' or ')'"));
    } else {
      FRESHET_PARSE_ASSIGN(AstExprPtr value, expression());
      row.push_back(std::move(value));
    }
    if (!result.values.empty() && row.size() != result.values[0].size()) {
      return sql_error_at(row_position, "this VALUES row has " + std::to_string(row.size()) +
                                            " columns and the first has " + std::to_string(result.values[0].size()));
    }
    result.values.push_back(std::move(row));
    result.value_positions.push_back(row_position);
  } while (accept(TokenKind::kComma));
  return result;
}

}  // namespace freshet::sql::detail
