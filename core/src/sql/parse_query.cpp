// Queries: SELECT blocks, FROM lists and joins (left-associative), set
// operations (UNION and EXCEPT, left-associative, over INTERSECT, which binds
// tighter), and ORDER BY / LIMIT / OFFSET / FETCH, which apply to the whole
// set operation before them.
#include <limits>
#include <utility>

#include "freshet/common/ascii.h"
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
  struct Leave {
    int& depth;
    ~Leave() { --depth; }
  } leave{++query_depth_};
  if (query_depth_ > kMaxQueryNesting) {
    return sql_error_at(current().position,
                        "queries nested too deeply (more than " + std::to_string(kMaxQueryNesting) + " levels)");
  }
  if (at_keyword("with")) return with_query();
  FRESHET_PARSE_ASSIGN(Query result, set_expression());
  FRESHET_RETURN_IF_ERROR(order_by_and_limit(result));
  return result;
}

namespace {

Query combine(SetOperator op, SourcePosition operator_position, Query left, Query right) {
  Query combined;
  combined.position = left.position;
  combined.set_operator = op;
  combined.operator_position = operator_position;
  combined.left = std::make_unique<Query>(std::move(left));
  combined.right = std::make_unique<Query>(std::move(right));
  return combined;
}

//! `SELECT * FROM (inner)`: the query that ORDER BY / LIMIT after a
//! parenthesised query with its own ones apply to.
Query select_all_from(Query inner) {
  Query outer;
  outer.position = inner.position;
  auto select = std::make_unique<Select>();
  select->position = inner.position;
  SelectItem star;
  star.position = inner.position;
  star.star = true;
  select->items.push_back(std::move(star));
  select->from = std::make_unique<TableRef>();
  select->from->kind = TableRef::Kind::kSubquery;
  select->from->position = inner.position;
  select->from->subquery = std::make_unique<Query>(std::move(inner));
  outer.select = std::move(select);
  return outer;
}

}  // namespace

//! UNION and EXCEPT (MINUS), left-associative, over INTERSECT expressions.
Result<Query> Parser::set_expression() {
  FRESHET_PARSE_ASSIGN(Query left, intersect_expression());
  while (at_keyword("union") || at_keyword("except") || at_keyword("minus")) {
    const Token& keyword = advance();
    bool all = accept_keyword("all");
    if (!all) accept_keyword("distinct");
    SetOperator op = is_keyword(keyword, "union") ? (all ? SetOperator::kUnionAll : SetOperator::kUnion)
                                                  : (all ? SetOperator::kExceptAll : SetOperator::kExcept);
    FRESHET_PARSE_ASSIGN(Query right, intersect_expression());
    left = combine(op, keyword.position, std::move(left), std::move(right));
  }
  return left;
}

//! INTERSECT binds tighter than UNION and EXCEPT, as in standard SQL.
Result<Query> Parser::intersect_expression() {
  FRESHET_PARSE_ASSIGN(Query left, query_term());
  while (at_keyword("intersect")) {
    SourcePosition position = advance().position;
    bool all = accept_keyword("all");
    if (!all) accept_keyword("distinct");
    FRESHET_PARSE_ASSIGN(Query right, query_term());
    left = combine(all ? SetOperator::kIntersectAll : SetOperator::kIntersect, position, std::move(left),
                   std::move(right));
  }
  return left;
}

Result<Query> Parser::query_term() {
  if (accept(TokenKind::kLeftParen)) {
    FRESHET_PARSE_ASSIGN(Query inner, query());
    FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "')'"));
    return inner;
  }
  if (at_keyword("values") || at_keyword("value")) return values_query();
  if (!at_keyword("select")) return expected("'SELECT', 'VALUES' or '('");
  Query query_value;
  query_value.position = current().position;
  FRESHET_PARSE_ASSIGN(Select select_value, select());
  query_value.select = std::make_unique<Select>(std::move(select_value));
  return query_value;
}

//! ORDER BY, LIMIT, OFFSET and FETCH after a set expression. A
//! parenthesised query may carry its own: an outer LIMIT takes the inner
//! ORDER BY's order; otherwise the outer ones apply to the inner query's
//! result (`SELECT * FROM (inner) ORDER BY ... LIMIT ...`).
Status Parser::order_by_and_limit(Query& query) {
  std::vector<OrderItem> order_by;
  if (accept_keyword("order")) {
    FRESHET_RETURN_IF_ERROR(expect_keyword("by"));
    if (at_keyword("all")) return sql_error_at(current().position, "ORDER BY ALL is not supported; name the columns");
    do {
      OrderItem item;
      FRESHET_PARSE_ASSIGN(item.expr, expression());
      FRESHET_RETURN_IF_ERROR(order_direction(item));
      order_by.push_back(std::move(item));
    } while (accept(TokenKind::kComma));
  }
  Query limits;
  FRESHET_RETURN_IF_ERROR(row_limits(limits));
  bool inner_limited = query.limit || query.offset;
  bool outer_limited = limits.limit || limits.offset;
  if (order_by.empty() && !outer_limited) return Status::OK();
  if (inner_limited || (!order_by.empty() && !query.order_by.empty())) query = select_all_from(std::move(query));
  if (!order_by.empty()) query.order_by = std::move(order_by);
  query.limit = limits.limit;
  query.offset = limits.offset;
  return Status::OK();
}

//! `LIMIT [start,] {count | ALL}`, `OFFSET start [ROW | ROWS]` and
//! `FETCH {FIRST | NEXT} [count] {ROW | ROWS} ONLY`, as Calcite reads them.
Status Parser::row_limits(Query& query) {
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  SourcePosition limit_position = current().position;
  bool limit_given = accept_keyword("limit");
  if (limit_given && !accept_keyword("all")) {
    FRESHET_PARSE_ASSIGN(uint64_t count, unsigned_integer("a row count or ALL", kMax));
    if (accept(TokenKind::kComma)) {  // LIMIT start, count
      query.offset = count;
      if (accept_keyword("all")) return Status::OK();
      FRESHET_PARSE_ASSIGN(count, unsigned_integer("a row count or ALL", kMax));
    }
    query.limit = count;
  }
  SourcePosition offset_position = current().position;
  if (accept_keyword("offset")) {
    if (query.offset) return sql_error_at(offset_position, "OFFSET after LIMIT start, count, which has one");
    FRESHET_PARSE_ASSIGN(query.offset, unsigned_integer("a row count", kMax));
    if (!accept_keyword("rows")) accept_keyword("row");
  }
  SourcePosition fetch_position = current().position;
  if (accept_keyword("fetch")) {
    if (limit_given) {
      return sql_error_at(fetch_position, "FETCH after the LIMIT at line " + std::to_string(limit_position.line) +
                                              ", column " + std::to_string(limit_position.column) +
                                              "; give one of them");
    }
    if (!accept_keyword("first") && !accept_keyword("next")) return expected("'FIRST' or 'NEXT'");
    uint64_t count = 1;  // FETCH FIRST ROW ONLY
    if (at(TokenKind::kInteger)) {
      FRESHET_PARSE_ASSIGN(count, unsigned_integer("a row count", kMax));
    }
    if (!accept_keyword("rows") && !accept_keyword("row")) return expected("'ROWS' or 'ROW'");
    FRESHET_RETURN_IF_ERROR(expect_keyword("only"));
    query.limit = count;
  }
  return Status::OK();
}

Result<Select> Parser::select() {
  Select result;
  result.position = advance().position;  // SELECT
  if (accept_keyword("distinct")) {
    result.distinct = true;
    if (at_keyword("on") && peek(1).kind == TokenKind::kLeftParen) {
      result.distinct_on_position = advance().position;
      FRESHET_RETURN_IF_ERROR(expression_list(result.distinct_on));
    }
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
  if (accept_keyword("group")) FRESHET_RETURN_IF_ERROR(group_by_clause(result));
  if (accept_keyword("having")) {
    FRESHET_PARSE_ASSIGN(result.having, expression());
  }
  if (accept_keyword("window")) FRESHET_RETURN_IF_ERROR(window_clause(result.windows));
  if (accept_keyword("qualify")) {
    FRESHET_PARSE_ASSIGN(result.qualify, expression());
  }
  return result;
}

Result<SelectItem> Parser::select_item() {
  SelectItem item;
  item.position = current().position;
  if (accept(TokenKind::kStar)) {
    item.star = true;
    // Feldera's `* EXCLUDE (a)`, `* EXCEPT (a)` and `* REPLACE (e AS a)`.
    bool column_list = peek(1).kind == TokenKind::kLeftParen && !is_keyword(peek(2), "select");
    if ((at_keyword("exclude") || at_keyword("except") || at_keyword("replace")) && column_list) {
      const char* word = at_keyword("exclude") ? "EXCLUDE" : at_keyword("except") ? "EXCEPT" : "REPLACE";
      return sql_error_at(current().position, std::string("SELECT * ") + word + " (...) is not supported");
    }
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
  } else if (at(TokenKind::kLeftParen) && is_name(peek(1)) && !starts_subquery(1) && !is_keyword(peek(1), "values")) {
    // `( a CROSS JOIN b )`: a parenthesised join (or table), as the standard
    // and Calcite allow; the parentheses only group.
    advance();
    FRESHET_PARSE_ASSIGN(TableRefPtr grouped, from_item());
    FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "')'"));
    if (at_keyword("as") || (is_name(current()) && !at_join() && !at_keyword("qualify"))) {
      return sql_error_at(current().position, "an alias for a parenthesised join is not supported");
    }
    return grouped;
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
  // Clauses other engines take after a table, named rather than read as an alias.
  for (const char* clause : {"tablesample", "pivot", "unpivot", "match_recognize"}) {
    const bool sampling = is_keyword(peek(1), "bernoulli") || is_keyword(peek(1), "system");
    if (at_keyword(clause) && (peek(1).kind == TokenKind::kLeftParen || sampling)) {
      return sql_error_at(current().position, ascii_upper(clause) + " is not supported");
    }
  }
  FRESHET_RETURN_IF_ERROR(alias(table->alias));
  if (!table->alias.empty() && at(TokenKind::kLeftParen)) {
    FRESHET_PARSE_ASSIGN(table->column_aliases, name_list("a column name"));
  }
  return table;
}

}  // namespace freshet::sql::detail
