// Queries: SELECT blocks, FROM lists and joins (left-associative), set
// operations (UNION [ALL] and EXCEPT, one precedence, left-associative), and
// ORDER BY / LIMIT, which apply to the whole set operation before them.
#include <limits>
#include <utility>

#include "parser_internal.h"

namespace freshet::sql::detail {
namespace {

TableRefPtr make_join(JoinType type, TableRefPtr left, TableRefPtr right, AstExprPtr condition) {
  auto join = std::make_unique<TableRef>();
  join->kind = TableRef::Kind::kJoin;
  join->position = left->position;
  join->join_type = type;
  join->left = std::move(left);
  join->right = std::move(right);
  join->condition = std::move(condition);
  return join;
}

}  // namespace

Result<Query> Parser::query() {
  Nesting nesting(*this);
  FRESHET_RETURN_IF_ERROR(nesting.check());
  FRESHET_PARSE_ASSIGN(Query result, set_expression());
  FRESHET_RETURN_IF_ERROR(order_by_and_limit(result));
  return result;
}

Result<Query> Parser::set_expression() {
  FRESHET_PARSE_ASSIGN(Query left, query_term());
  while (at_keyword("union") || at_keyword("except")) {
    const Token& keyword = advance();
    SetOperator op = SetOperator::kExcept;
    if (is_keyword(keyword, "union")) {
      op = accept_keyword("all") ? SetOperator::kUnionAll : SetOperator::kUnion;
      if (op == SetOperator::kUnion) accept_keyword("distinct");
    } else if (at_keyword("all")) {
      return sql_error_at(current().position, "EXCEPT ALL is not supported");
    } else {
      accept_keyword("distinct");
    }
    FRESHET_PARSE_ASSIGN(Query right, query_term());
    Query combined;
    combined.position = left.position;
    combined.set_operator = op;
    combined.left = std::make_unique<Query>(std::move(left));
    combined.right = std::make_unique<Query>(std::move(right));
    left = std::move(combined);
  }
  return left;
}

Result<Query> Parser::query_term() {
  if (accept(TokenKind::kLeftParen)) {
    FRESHET_PARSE_ASSIGN(Query inner, query());
    FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "')'"));
    return inner;
  }
  if (!at_keyword("select")) return expected("'SELECT' or '('");
  Query query_value;
  query_value.position = current().position;
  FRESHET_PARSE_ASSIGN(Select select_value, select());
  query_value.select = std::make_unique<Select>(std::move(select_value));
  return query_value;
}

//! ORDER BY and LIMIT after a set expression. A parenthesised query may carry
//! its own; the outer ones may only add what keeps the meaning: a LIMIT
//! after an inner ORDER BY.
Status Parser::order_by_and_limit(Query& query) {
  SourcePosition order_position = current().position;
  if (accept_keyword("order")) {
    FRESHET_RETURN_IF_ERROR(expect_keyword("by"));
    if (!query.order_by.empty() || query.limit) {
      return sql_error_at(order_position, "the query in parentheses already has ORDER BY or LIMIT");
    }
    do {
      OrderItem item;
      FRESHET_PARSE_ASSIGN(item.expr, expression());
      FRESHET_RETURN_IF_ERROR(order_direction(item));
      query.order_by.push_back(std::move(item));
    } while (accept(TokenKind::kComma));
  }
  SourcePosition limit_position = current().position;
  if (accept_keyword("limit")) {
    if (query.limit) return sql_error_at(limit_position, "the query in parentheses already has a LIMIT");
    FRESHET_PARSE_ASSIGN(query.limit, unsigned_integer("a row count", std::numeric_limits<uint64_t>::max()));
  }
  return Status::OK();
}

Result<Select> Parser::select() {
  Select result;
  result.position = advance().position;  // SELECT
  if (accept_keyword("distinct")) {
    result.distinct = true;
  } else {
    accept_keyword("all");
  }
  do {
    FRESHET_PARSE_ASSIGN(SelectItem item, select_item());
    result.items.push_back(std::move(item));
  } while (accept(TokenKind::kComma));
  if (accept_keyword("from")) {
    FRESHET_PARSE_ASSIGN(result.from, from_item());
    while (at(TokenKind::kComma)) {
      advance();
      FRESHET_PARSE_ASSIGN(TableRefPtr right, from_item());
      result.from = make_join(JoinType::kCross, std::move(result.from), std::move(right), nullptr);
    }
  }
  if (accept_keyword("where")) {
    FRESHET_PARSE_ASSIGN(result.where, expression());
  }
  if (accept_keyword("group")) {
    FRESHET_RETURN_IF_ERROR(expect_keyword("by"));
    do {
      FRESHET_PARSE_ASSIGN(AstExprPtr key, expression());
      result.group_by.push_back(std::move(key));
    } while (accept(TokenKind::kComma));
  }
  if (accept_keyword("having")) {
    FRESHET_PARSE_ASSIGN(result.having, expression());
  }
  if (accept_keyword("window")) FRESHET_RETURN_IF_ERROR(window_clause(result.windows));
  if (at_keyword("qualify")) return sql_error_at(current().position, "QUALIFY is not supported; filter a subquery instead");
  return result;
}

Result<SelectItem> Parser::select_item() {
  SelectItem item;
  item.position = current().position;
  if (accept(TokenKind::kStar)) {
    item.star = true;
    return item;
  }
  if (is_name(current()) && peek(1).kind == TokenKind::kDot && peek(2).kind == TokenKind::kStar) {
    item.star = true;
    item.star_table = advance().text;
    advance();
    advance();
    return item;
  }
  FRESHET_PARSE_ASSIGN(item.expr, expression());
  FRESHET_RETURN_IF_ERROR(alias(item.alias));
  return item;
}

Status Parser::alias(std::string& out) {
  if (accept_keyword("as")) {
    FRESHET_PARSE_ASSIGN(out, name("an alias"));
  } else if (is_name(current()) && !at_keyword("qualify") &&          // QUALIFY is refused by name, never an alias
             !(at_keyword("asof") && is_keyword(peek(1), "join"))) {  // nor ASOF JOIN (parse_join.cpp)
    out = advance().text;
  }
  return Status::OK();
}

//! A table or subquery followed by any number of JOINs, left-associative
//! (parse_join.cpp).
Result<TableRefPtr> Parser::from_item() {
  FRESHET_PARSE_ASSIGN(TableRefPtr left, table_primary());
  while (at_join()) {
    FRESHET_PARSE_ASSIGN(left, join(std::move(left)));
  }
  return left;
}

Result<TableRefPtr> Parser::table_primary() {
  auto table = std::make_unique<TableRef>();
  table->position = current().position;
  if (at_keyword("table") && peek(1).kind == TokenKind::kLeftParen) {
    advance();
    advance();
    FRESHET_PARSE_ASSIGN(table, window_table_function(table->position));
  } else if (at_keyword("unnest") && peek(1).kind == TokenKind::kLeftParen) {
    return sql_error_at(table->position, "UNNEST is not supported: Freshet has no ARRAY type");
  } else if (at(TokenKind::kLeftParen) || (at_keyword("lateral") && peek(1).kind == TokenKind::kLeftParen)) {
    table->lateral = accept_keyword("lateral");
    advance();  // (
    table->kind = TableRef::Kind::kSubquery;
    FRESHET_PARSE_ASSIGN(Query subquery, query());
    table->subquery = std::make_unique<Query>(std::move(subquery));
    FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "')'"));
  } else {
    table->kind = TableRef::Kind::kTable;
    FRESHET_PARSE_ASSIGN(table->name, name("a table name or '('"));
  }
  FRESHET_RETURN_IF_ERROR(alias(table->alias));
  return table;
}

}  // namespace freshet::sql::detail
