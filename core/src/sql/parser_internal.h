// The recursive-descent parser's state, shared by its parts: statements and
// types (parser.cpp, parse_type.cpp), queries (parse_query.cpp) and
// expressions (parse_expression.cpp). Private to core/src/sql.
//
// ## Design
// One token of lookahead (two for `t.*`, `DATE '...'` and `name(`). Binary
// operators are parsed by precedence climbing, so nesting one parenthesis
// costs four stack frames whatever the operator. Every construct that nests
// (a parenthesis, a subquery, a prefix operator, CASE, a function's
// arguments) opens a Nesting scope; past kMaxParserNesting the parse fails
// instead of overflowing the stack. Chains of left-associative operators
// (a + b + c ...) build deep trees but are parsed by a loop, not recursion.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "freshet/common/status.h"
#include "freshet/sql/ast.h"
#include "freshet/sql/lexer.h"
#include "freshet/sql/parser.h"

#define FRESHET_PARSER_CONCAT_INNER(a, b) a##b
#define FRESHET_PARSER_CONCAT(a, b) FRESHET_PARSER_CONCAT_INNER(a, b)
//! `lhs = value of expr`, or returns its error from the enclosing function.
#define FRESHET_PARSE_ASSIGN(lhs, expr) \
  FRESHET_PARSE_ASSIGN_IMPL(FRESHET_PARSER_CONCAT(parse_result_, __LINE__), lhs, expr)
#define FRESHET_PARSE_ASSIGN_IMPL(result, lhs, expr) \
  auto result = (expr);                              \
  if (!result.ok()) return result.status();          \
  lhs = std::move(result).value()

namespace freshet::sql::detail {

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

  // ------------------------------------------------ statements (parser.cpp)
  Result<Program> program();
  Result<Statement> statement();
  Result<CreateTable> create_table(SourcePosition position);
  Result<CreateView> create_view(SourcePosition position, bool materialized);
  Result<CreateIndex> create_index(SourcePosition position);
  //! `( name, ... )`, each an identifier described as `what`.
  Result<std::vector<std::string>> name_list(std::string_view what);
  //! `WITH ('key' = 'value', ...)` after CREATE TABLE's columns or before a
  //! view's AS (parse_properties.cpp); none when the next token is not WITH.
  Result<std::vector<Property>> properties();

  // ------------------------------------------------- types (parse_type.cpp)
  Result<SqlType> type();

  // ----------------------------------------------- queries (parse_query.cpp)
  //! Set operations, then ORDER BY and LIMIT for the whole.
  Result<Query> query();

  // ----------------------------------------- expressions (parse_expression.cpp)
  Result<AstExprPtr> expression();

  // --------------------------------------- time units (parse_temporal.cpp)
  //! Whether the current token is an unquoted time unit keyword (YEAR, DOW, SQL_TSI_DAY...).
  bool at_time_unit() const;
  //! Consumes a time unit keyword, or fails with "expected a time unit (...), found ...".
  Result<TimeUnit> time_unit();

  // ------------------------------------------------------- token helpers
  const Token& current() const { return tokens_[index_]; }
  //! The token `ahead` places after the current one (the end token past the end).
  const Token& peek(size_t ahead) const {
    return ahead < tokens_.size() - index_ ? tokens_[index_ + ahead] : tokens_.back();
  }
  const Token& advance() {
    const Token& token = tokens_[index_];
    if (index_ + 1 < tokens_.size()) ++index_;
    return token;
  }
  bool at(TokenKind kind) const { return current().kind == kind; }
  //! The current token is the unquoted keyword `word` (lower-case).
  bool at_keyword(std::string_view word) const { return is_keyword(current(), word); }
  static bool is_keyword(const Token& token, std::string_view word) {
    return token.kind == TokenKind::kIdentifier && !token.quoted && token.text == word;
  }
  //! An identifier usable as a name: quoted, or unquoted and not reserved.
  static bool is_name(const Token& token) {
    return token.kind == TokenKind::kIdentifier && (token.quoted || !is_reserved_word(token.text));
  }
  bool accept(TokenKind kind);
  bool accept_keyword(std::string_view word);
  //! Consumes a `kind` token or fails with "expected <what>, found ...".
  Status expect(TokenKind kind, std::string_view what);
  //! Consumes the keyword `word` or fails with "expected 'WORD', found ...".
  Status expect_keyword(std::string_view word);
  //! "line L, column C: expected <what>, found <current token>".
  Status expected(std::string_view what) const;
  //! A name (see is_name()), or "expected <what>".
  Result<std::string> name(std::string_view what);
  //! An unsigned integer literal that fits in `max`, or "expected <what>".
  Result<uint64_t> unsigned_integer(std::string_view what, uint64_t max);

  //! One level of nesting for its lifetime; check() fails past the cap.
  class Nesting {
   public:
    explicit Nesting(Parser& parser) : parser_(parser) { ++parser_.depth_; }
    ~Nesting() { --parser_.depth_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;
    Status check() const;

   private:
    Parser& parser_;
  };

 private:
  // Expression levels (parse_expression.cpp).
  Result<AstExprPtr> binary(int min_precedence);
  Result<AstExprPtr> postfix_predicate(AstExprPtr left);
  Result<AstExprPtr> unary();
  //! `operand` followed by any `::type` casts.
  Result<AstExprPtr> casts(AstExprPtr operand);
  Result<AstExprPtr> primary();
  Result<AstExprPtr> name_expression();
  Result<AstExprPtr> function_call(SourcePosition position, std::string function_name);
  Result<AstExprPtr> aggregate_filter();
  Result<AstExprPtr> case_expression();
  // Subqueries in expressions (parse_expression.cpp).
  //! Whether the token `ahead` places on starts a query (SELECT or WITH).
  bool starts_subquery(size_t ahead) const;
  //! At ANY, SOME or ALL followed by `(SELECT`.
  bool at_quantifier() const;
  Result<AstExprPtr> subquery_expression(AstExprKind kind, SourcePosition position);
  Result<AstExprPtr> quantified_comparison(AstExprPtr left, AstOperator op, SourcePosition operator_position);
  Result<AstExprPtr> cast_expression();
  Result<AstExprPtr> extract_expression();
  Result<AstExprPtr> substring_expression();
  // String functions with keywords among their arguments (parse_string_functions.cpp).
  Result<AstExprPtr> trim_expression();
  Result<AstExprPtr> position_expression();
  // Calls with a time unit among their arguments (parse_temporal.cpp).
  //! Whether `name(` starts one: DATE_TRUNC, FLOOR, TIMESTAMPADD, DATE_PART...
  static bool is_time_unit_call(const std::string& name);
  Result<AstExprPtr> time_unit_call();
  Result<AstExprPtr> unit_first_call(AstExprPtr call);
  //! An operand of + and - (a frame offset: `1 PRECEDING`, `INTERVAL '1' HOUR PRECEDING`).
  Result<AstExprPtr> binary_operand();
  // Intervals (parse_interval.cpp).
  Result<AstExprPtr> interval_literal();
  //! `(a - b) unit [TO unit]` after the parenthesis closed over `inner`.
  Result<AstExprPtr> datetime_difference(AstExprPtr inner);

 public:
  //! Whether the current token starts an interval qualifier (a unit word).
  bool at_interval_unit() const;
  //! `unit [(p)] [TO unit [(p)]]` as an interval type; `leading_precision`
  //! receives the first field's (p), 0 when none was written.
  Result<SqlType> interval_qualifier(uint32_t* leading_precision);

 private:
  //! `( expr, ... )` of IN, after the IN keyword.
  Status expression_list(std::vector<AstExprPtr>& out);

  // Query levels (parse_query.cpp).
  Result<Query> set_expression();
  Result<Query> intersect_expression();
  Result<Query> query_term();
  //! `WITH item, ... query`, at the WITH keyword (parse_with_values.cpp).
  Result<Query> with_query();
  //! `VALUES row, ...`, at the VALUES keyword (parse_with_values.cpp).
  Result<Query> values_query();
  //! LIMIT, OFFSET and FETCH into `query`.
  Status row_limits(Query& query);
  Result<Select> select();
  Result<SelectItem> select_item();
  Result<TableRefPtr> from_item();
  // Joins (parse_join.cpp).
  //! Whether the current token starts a join (JOIN, LEFT, NATURAL, ...).
  bool at_join() const;
  //! The join of `left` with the next table, from its first keyword.
  Result<TableRefPtr> join(TableRefPtr left);
  Result<TableRefPtr> table_primary();
  //! `TABLE(TUMBLE(...))` / `TABLE(HOP(...))` after `TABLE (` (parse_time_window.cpp).
  Result<TableRefPtr> window_table_function(SourcePosition position);
  Status alias(std::string& out);
  Status order_by_and_limit(Query& query);
  // GROUP BY (parse_group_by.cpp).
  //! After GROUP: `BY ALL`, or `BY [ALL | DISTINCT] item, ...`.
  Status group_by_clause(Select& select);
  Result<GroupItem> group_item();
  Result<GroupItem> group_list_or_expression();

  // Window specifications (parse_window.cpp).
  //! `OVER (...)` or `OVER name`, at the OVER keyword.
  Result<std::unique_ptr<WindowSpec>> over_clause();
  //! `( [base] [PARTITION BY ...] [ORDER BY ...] [frame] )`.
  Status window_spec(WindowSpec& spec);
  Result<FrameBound> frame_bound();
  //! `[ASC | DESC] [NULLS FIRST | NULLS LAST]` after an ORDER BY expression.
  Status order_direction(OrderItem& item);
  //! `name AS (spec), ...` after the WINDOW keyword.
  Status window_clause(std::vector<NamedWindow>& windows);

  std::vector<Token> tokens_;
  size_t index_ = 0;
  int depth_ = 0;
  int query_depth_ = 0;
  int chain_depth_ = 0;  //!< binary operators chained by the expressions around the current one (kMaxOperatorChain)  //!< queries open around the current token (kMaxQueryNesting)
};

//! Shorthand for a new expression node.
AstExprPtr make_expr(AstExprKind kind, SourcePosition position);

}  // namespace freshet::sql::detail
