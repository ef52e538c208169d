// Expressions by precedence climbing. Precedence, lowest first:
//   OR; AND; NOT (prefix); comparisons, IS [NOT] NULL, [NOT] BETWEEN,
//   [NOT] IN, [NOT] LIKE; ||; + -; * / %; unary - +.
// Binary operators of one level associate to the left.
#include <utility>

#include "freshet/common/ascii.h"
#include "freshet/common/out_of_line.h"
#include "parser_internal.h"

namespace freshet::sql::detail {
namespace {

enum Precedence : int {
  kOrPrecedence = 1,
  kAndPrecedence,
  kNotPrecedence,
  kComparisonPrecedence,
  kConcatPrecedence,
  kAdditivePrecedence,
  kMultiplicativePrecedence,
};

struct BinaryOperator {
  int precedence = 0;  //!< 0: the token is no binary operator
  AstOperator op = AstOperator::kNone;
};

BinaryOperator binary_operator(const Token& token) {
  switch (token.kind) {
    case TokenKind::kEqual:
      return {kComparisonPrecedence, AstOperator::kEqual};
    case TokenKind::kNotEqual:
      return {kComparisonPrecedence, AstOperator::kNotEqual};
    case TokenKind::kLess:
      return {kComparisonPrecedence, AstOperator::kLess};
    case TokenKind::kLessEqual:
      return {kComparisonPrecedence, AstOperator::kLessEqual};
    case TokenKind::kGreater:
      return {kComparisonPrecedence, AstOperator::kGreater};
    case TokenKind::kGreaterEqual:
      return {kComparisonPrecedence, AstOperator::kGreaterEqual};
    case TokenKind::kConcat:
      return {kConcatPrecedence, AstOperator::kConcat};
    case TokenKind::kPlus:
      return {kAdditivePrecedence, AstOperator::kAdd};
    case TokenKind::kMinus:
      return {kAdditivePrecedence, AstOperator::kSubtract};
    case TokenKind::kStar:
      return {kMultiplicativePrecedence, AstOperator::kMultiply};
    case TokenKind::kSlash:
      return {kMultiplicativePrecedence, AstOperator::kDivide};
    case TokenKind::kPercent:
      return {kMultiplicativePrecedence, AstOperator::kModulo};
    default:
      break;
  }
  if (Parser::is_keyword(token, "or")) return {kOrPrecedence, AstOperator::kOr};
  if (Parser::is_keyword(token, "and")) return {kAndPrecedence, AstOperator::kAnd};
  return {};
}

//! IS, BETWEEN, IN, LIKE, ILIKE, RLIKE and SIMILAR (an error), or NOT before one of the last six.
bool starts_postfix_predicate(const Token& token, const Token& next) {
  if (Parser::is_keyword(token, "not")) {
    return Parser::is_keyword(next, "between") || Parser::is_keyword(next, "in") || Parser::is_keyword(next, "like") ||
           Parser::is_keyword(next, "rlike") || Parser::is_keyword(next, "similar") ||
           Parser::is_keyword(next, "ilike");
  }
  return Parser::is_keyword(token, "is") || Parser::is_keyword(token, "between") || Parser::is_keyword(token, "in") ||
         Parser::is_keyword(token, "like") || Parser::is_keyword(token, "rlike") ||
         (Parser::is_keyword(token, "similar") && Parser::is_keyword(next, "to")) ||
         (Parser::is_keyword(token, "ilike") &&  // not a column alias named ilike
          (next.kind == TokenKind::kString || next.kind == TokenKind::kLeftParen ||
           (next.kind == TokenKind::kIdentifier && !Parser::is_keyword(next, "from"))));
}

AstExprPtr make_literal(LiteralKind kind, SourcePosition position, std::string text) {
  AstExprPtr literal = make_expr(AstExprKind::kLiteral, position);
  literal->literal_kind = kind;
  literal->text = std::move(text);
  return literal;
}

bool is_numeric_literal(const AstExpr& expr) {
  return expr.kind == AstExprKind::kLiteral &&
         (expr.literal_kind == LiteralKind::kInteger || expr.literal_kind == LiteralKind::kDecimal ||
          expr.literal_kind == LiteralKind::kFloat);
}

}  // namespace

Result<AstExprPtr> Parser::expression() {
  Nesting nesting(*this);
  FRESHET_RETURN_IF_ERROR(nesting.check());
  return binary(kOrPrecedence);
}

Result<AstExprPtr> Parser::binary_operand() { return binary(kConcatPrecedence + 1); }

Result<AstExprPtr> Parser::binary(int min_precedence) {
  AstExprPtr left;
  if (at_keyword("not") && min_precedence <= kNotPrecedence) {
    Nesting nesting(*this);
    FRESHET_RETURN_IF_ERROR(nesting.check());
    SourcePosition position = advance().position;
    FRESHET_PARSE_ASSIGN(AstExprPtr operand, binary(kNotPrecedence));
    left = make_expr(AstExprKind::kUnary, position);
    left->op = AstOperator::kNot;
    left->children.push_back(std::move(operand));
  } else {
    FRESHET_PARSE_ASSIGN(left, unary());
  }
  int chained = 0;  // operators this call has applied: `left` is as deep
  while (true) {
    if (starts_postfix_predicate(current(), peek(1))) {
      if (kComparisonPrecedence < min_precedence) return left;
      FRESHET_PARSE_ASSIGN(left, postfix_predicate(std::move(left)));
      continue;
    }
    BinaryOperator op = binary_operator(current());
    if (op.precedence == 0 || op.precedence < min_precedence) return left;
    SourcePosition operator_position = current().position;
    if (chain_depth_ + ++chained > kMaxOperatorChain) {
      return sql_error_at(operator_position, "more than " + std::to_string(kMaxOperatorChain) +
                                                 " operators in one expression (for a long list of values, use IN (...))");
    }
    advance();
    if (op.precedence == kComparisonPrecedence && at_quantifier()) {
      FRESHET_PARSE_ASSIGN(left, quantified_comparison(std::move(left), op.op, operator_position));
      continue;
    }
    chain_depth_ += chained;
    Result<AstExprPtr> parsed_right = binary(op.precedence + 1);
    chain_depth_ -= chained;
    if (!parsed_right.ok()) return parsed_right.status();
    AstExprPtr right = std::move(*parsed_right);
    AstExprPtr node = make_expr(AstExprKind::kBinary, left->position);
    node->op = op.op;
    node->operator_position = operator_position;
    node->children.push_back(std::move(left));
    node->children.push_back(std::move(right));
    left = std::move(node);
  }
}

Result<AstExprPtr> Parser::postfix_predicate(AstExprPtr left) {
  SourcePosition position = left->position;
  if (accept_keyword("is")) {
    const bool negated = accept_keyword("not");
    AstExprPtr node;
    if (accept_keyword("distinct")) {
      FRESHET_RETURN_IF_ERROR(expect_keyword("from"));
      node = make_expr(AstExprKind::kIsDistinct, position);
      node->children.push_back(std::move(left));
      FRESHET_PARSE_ASSIGN(AstExprPtr right, binary(kConcatPrecedence));
      node->children.push_back(std::move(right));
    } else if (at_keyword("true") || at_keyword("false") || at_keyword("unknown")) {
      node = make_expr(AstExprKind::kIsTruth, position);
      node->text = advance().text;
      node->children.push_back(std::move(left));
    } else if (at_keyword("null")) {
      advance();
      node = make_expr(AstExprKind::kIsNull, position);
      node->children.push_back(std::move(left));
    } else {
      return expected(negated ? "NULL, TRUE, FALSE, UNKNOWN or DISTINCT FROM after IS NOT"
                              : "NULL, TRUE, FALSE, UNKNOWN or DISTINCT FROM after IS");
    }
    node->negated = negated;
    return node;
  }
  bool negated = accept_keyword("not");
  AstExprPtr node;
  if (accept_keyword("between")) {
    node = make_expr(AstExprKind::kBetween, position);
    node->children.push_back(std::move(left));
    FRESHET_PARSE_ASSIGN(AstExprPtr low, binary(kConcatPrecedence));
    FRESHET_RETURN_IF_ERROR(expect_keyword("and"));
    FRESHET_PARSE_ASSIGN(AstExprPtr high, binary(kConcatPrecedence));
    node->children.push_back(std::move(low));
    node->children.push_back(std::move(high));
  } else if (accept_keyword("in")) {
    if (at(TokenKind::kLeftParen) && starts_subquery(1)) {
      FRESHET_PARSE_ASSIGN(node, subquery_expression(AstExprKind::kInSubquery, position));
      node->children.push_back(std::move(left));
      node->negated = negated;
      return node;
    }
    node = make_expr(AstExprKind::kInList, position);
    node->children.push_back(std::move(left));
    FRESHET_RETURN_IF_ERROR(expression_list(node->children));
  } else if (at_keyword("similar")) {
    return sql_error_at(current().position, "SIMILAR TO is not supported (as in Feldera): use RLIKE");
  } else if (accept_keyword("rlike")) {
    // s RLIKE pattern is the function RLIKE(s, pattern); NOT RLIKE negates it.
    node = make_expr(AstExprKind::kFunction, position);
    node->name = "rlike";
    node->children.push_back(std::move(left));
    FRESHET_PARSE_ASSIGN(AstExprPtr pattern, binary(kConcatPrecedence));
    node->children.push_back(std::move(pattern));
  } else {
    // [NOT] LIKE | ILIKE pattern [ESCAPE character]; ILIKE is named in `name`.
    const bool ilike = accept_keyword("ilike");
    if (!ilike) FRESHET_RETURN_IF_ERROR(expect_keyword("like"));
    node = make_expr(AstExprKind::kLike, position);
    if (ilike) node->name = "ilike";
    node->children.push_back(std::move(left));
    FRESHET_PARSE_ASSIGN(AstExprPtr pattern, binary(kConcatPrecedence));
    node->children.push_back(std::move(pattern));
    if (accept_keyword("escape")) {
      FRESHET_PARSE_ASSIGN(AstExprPtr escape, binary(kConcatPrecedence));
      node->children.push_back(std::move(escape));
    }
  }
  node->negated = negated;
  return node;
}

Status Parser::expression_list(std::vector<AstExprPtr>& out) {
  FRESHET_RETURN_IF_ERROR(expect(TokenKind::kLeftParen, "'('"));
  do {
    FRESHET_PARSE_ASSIGN(AstExprPtr item, expression());
    out.push_back(std::move(item));
  } while (accept(TokenKind::kComma));
  return expect(TokenKind::kRightParen, "',' or ')'");
}

Result<AstExprPtr> Parser::unary() {
  if (!at(TokenKind::kMinus) && !at(TokenKind::kPlus)) {
    FRESHET_PARSE_ASSIGN(AstExprPtr operand, primary());
    return casts(std::move(operand));
  }
  Nesting nesting(*this);
  FRESHET_RETURN_IF_ERROR(nesting.check());
  const Token& sign = advance();
  FRESHET_PARSE_ASSIGN(AstExprPtr operand, unary());
  if (sign.kind == TokenKind::kPlus) return operand;
  if (is_numeric_literal(*operand) && operand->text[0] != '-') {
    operand->text.insert(operand->text.begin(), '-');
    operand->position = sign.position;
    return operand;
  }
  AstExprPtr node = make_expr(AstExprKind::kUnary, sign.position);
  node->op = AstOperator::kNegate;
  node->children.push_back(std::move(operand));
  return node;
}

Result<AstExprPtr> Parser::primary() {
  const Token& token = current();
  switch (token.kind) {
    case TokenKind::kInteger:
      return make_literal(LiteralKind::kInteger, advance().position, token.text);
    case TokenKind::kDecimal:
      return make_literal(LiteralKind::kDecimal, advance().position, token.text);
    case TokenKind::kFloat:
      return make_literal(LiteralKind::kFloat, advance().position, token.text);
    case TokenKind::kString:
      return make_literal(LiteralKind::kString, advance().position, token.text);
    case TokenKind::kLeftParen: {
      if (starts_subquery(1)) return subquery_expression(AstExprKind::kSubquery, token.position);
      advance();
      FRESHET_PARSE_ASSIGN(AstExprPtr inner, expression());
      if (at(TokenKind::kComma)) return sql_error_at(token.position, "row values ((a, b, ...)) are not supported");
      FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "')'"));
      if (at_interval_unit()) return call_out_of_line<&Parser::datetime_difference>(this, std::move(inner));
      return inner;
    }
    case TokenKind::kIdentifier:
      return name_expression();
    default:
      return expected("an expression");
  }
}

//! Everything that starts with a word: NULL, TRUE, FALSE, DATE '...',
//! TIMESTAMP '...', CASE, CAST, EXTRACT, SUBSTRING, function calls and column
//! references.
Result<AstExprPtr> Parser::name_expression() {
  const Token& token = current();
  SourcePosition position = token.position;
  const Token& next = peek(1);
  if (!token.quoted) {
    if (token.text == "null") return make_literal(LiteralKind::kNull, advance().position, "");
    if (token.text == "true" || token.text == "false") {
      return make_literal(LiteralKind::kBoolean, advance().position, token.text);
    }
    if (next.kind == TokenKind::kString &&
        (token.text == "date" || token.text == "timestamp" || token.text == "time")) {
      LiteralKind kind = token.text == "date"        ? LiteralKind::kDate
                         : token.text == "timestamp" ? LiteralKind::kTimestamp
                                                     : LiteralKind::kTime;
      advance();
      return make_literal(kind, position, advance().text);
    }
    // INTERVAL '1' DAY, INTERVAL 1 DAY, INTERVAL -'1' DAY (not `interval - 1`, a column named interval).
    bool signed_value = (next.kind == TokenKind::kMinus || next.kind == TokenKind::kPlus) &&
                        peek(2).kind == TokenKind::kString;
    if (token.text == "interval" && (next.kind == TokenKind::kString || next.kind == TokenKind::kInteger ||
                                     next.kind == TokenKind::kDecimal || signed_value)) {
      return call_out_of_line<&Parser::interval_literal>(this);
    }
    if (token.text == "case") return call_out_of_line<&Parser::case_expression>(this);
    if (token.text == "exists" && next.kind == TokenKind::kLeftParen) {
      advance();
      if (!starts_subquery(1)) return sql_error_at(current().position, "EXISTS needs a subquery: EXISTS (SELECT ...)");
      return subquery_expression(AstExprKind::kExists, position);
    }
    if (token.text == "current_timestamp" && next.kind != TokenKind::kLeftParen) {
      // CURRENT_TIMESTAMP (no parentheses) is NOW().
      AstExprPtr now = make_expr(AstExprKind::kFunction, advance().position);
      now->name = "now";
      return now;
    }
    if (token.text == "current_date" && next.kind != TokenKind::kLeftParen && !token.quoted) {
      return sql_error_at(token.position, "CURRENT_DATE is not supported: use CAST(NOW() AS DATE)");
    }
    if (next.kind == TokenKind::kLeftParen) {
      if (token.text == "safe_cast" || token.text == "try_cast") {
        return sql_error_at(
            token.position,
            ascii_upper(token.text) + " is not supported: use CAST (a value that does not convert fails the step)");
      }
      // The special forms are called out of line (out_of_line.h says why).
      if (token.text == "cast") return call_out_of_line<&Parser::cast_expression>(this);
      if (token.text == "extract") return call_out_of_line<&Parser::extract_expression>(this);
      if (token.text == "substring") return call_out_of_line<&Parser::substring_expression>(this);
      if (is_time_unit_call(token.text)) return call_out_of_line<&Parser::time_unit_call>(this);
      if (token.text == "trim") return call_out_of_line<&Parser::trim_expression>(this);
      if (token.text == "position") return call_out_of_line<&Parser::position_expression>(this);
      if (token.text == "left" || token.text == "right") {  // reserved for joins, and functions too
        std::string function_name = advance().text;
        return function_call(position, std::move(function_name));
      }
    }
    if (is_reserved_word(token.text)) return expected("an expression");
  }
  std::string first = advance().text;
  if (at(TokenKind::kLeftParen)) {
    FRESHET_PARSE_ASSIGN(AstExprPtr call, function_call(position, std::move(first)));
    if ((at_keyword("ignore") || at_keyword("respect")) && is_keyword(peek(1), "nulls")) {
      if (at_keyword("ignore")) return sql_error_at(current().position, "IGNORE NULLS is not supported");
      advance();  // RESPECT NULLS: the default
      advance();
    }
    if (at_keyword("filter") && peek(1).kind == TokenKind::kLeftParen) {
      FRESHET_PARSE_ASSIGN(call->filter, call_out_of_line<&Parser::aggregate_filter>(this));
    } else if (at_keyword("within") && (is_keyword(peek(1), "distinct") || is_keyword(peek(1), "group"))) {
      return sql_error_at(
          current().position,
          std::string("WITHIN ") + (is_keyword(peek(1), "group") ? "GROUP" : "DISTINCT") + " is not supported");
    }
    if (at_keyword("over")) {
      FRESHET_PARSE_ASSIGN(call->over, call_out_of_line<&Parser::over_clause>(this));
    }
    return call;
  }
  AstExprPtr column = make_expr(AstExprKind::kColumnRef, position);
  column->names.push_back(std::move(first));
  if (accept(TokenKind::kDot)) {
    FRESHET_PARSE_ASSIGN(std::string second, name("a column name"));
    column->names.push_back(std::move(second));
  }
  return column;
}

Result<AstExprPtr> Parser::function_call(SourcePosition position, std::string function_name) {
  Nesting nesting(*this);
  FRESHET_RETURN_IF_ERROR(nesting.check());
  FRESHET_RETURN_IF_ERROR(expect(TokenKind::kLeftParen, "'('"));
  AstExprPtr call = make_expr(AstExprKind::kFunction, position);
  call->name = std::move(function_name);
  if (call->name == "count" && at(TokenKind::kStar)) {
    advance();
    call->star = true;
    FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "')'"));
    return call;
  }
  if (accept(TokenKind::kRightParen)) return call;
  if (accept_keyword("distinct")) {
    call->distinct = true;
  } else {
    accept_keyword("all");
  }
  do {
    FRESHET_PARSE_ASSIGN(AstExprPtr argument, expression());
    call->children.push_back(std::move(argument));
  } while (accept(TokenKind::kComma));
  FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "',' or ')'"));
  return call;
}

//! `FILTER (WHERE condition)` after an aggregate call: the condition.
Result<AstExprPtr> Parser::aggregate_filter() {
  advance();  // FILTER
  FRESHET_RETURN_IF_ERROR(expect(TokenKind::kLeftParen, "'('"));
  if (!accept_keyword("where")) return expected("'WHERE' (FILTER (WHERE condition))");
  FRESHET_PARSE_ASSIGN(AstExprPtr condition, expression());
  FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "')'"));
  return condition;
}

Result<AstExprPtr> Parser::case_expression() {
  Nesting nesting(*this);
  FRESHET_RETURN_IF_ERROR(nesting.check());
  AstExprPtr node = make_expr(AstExprKind::kCase, advance().position);
  if (!at_keyword("when")) {
    FRESHET_PARSE_ASSIGN(node->case_operand, expression());
  }
  if (!at_keyword("when")) return expected("'WHEN'");
  while (accept_keyword("when")) {
    FRESHET_PARSE_ASSIGN(AstExprPtr condition, expression());
    FRESHET_RETURN_IF_ERROR(expect_keyword("then"));
    FRESHET_PARSE_ASSIGN(AstExprPtr result, expression());
    node->children.push_back(std::move(condition));
    node->children.push_back(std::move(result));
  }
  if (accept_keyword("else")) {
    FRESHET_PARSE_ASSIGN(node->else_result, expression());
  }
  if (!accept_keyword("end")) return expected(node->else_result ? "'END'" : "'WHEN', 'ELSE' or 'END'");
  return node;
}

// x::type (PostgreSQL's cast, which Feldera takes too) is CAST(x AS type). It
// binds tighter than a sign (-x::INT is -(x::INT)) and repeats (x::INT::VARCHAR).
Result<AstExprPtr> Parser::casts(AstExprPtr operand) {
  while (at(TokenKind::kDoubleColon)) {
    AstExprPtr node = make_expr(AstExprKind::kCast, advance().position);
    node->children.push_back(std::move(operand));
    FRESHET_PARSE_ASSIGN(node->cast_type, type());
    operand = std::move(node);
  }
  return operand;
}

Result<AstExprPtr> Parser::cast_expression() {
  Nesting nesting(*this);
  FRESHET_RETURN_IF_ERROR(nesting.check());
  AstExprPtr node = make_expr(AstExprKind::kCast, advance().position);
  advance();  // '('
  FRESHET_PARSE_ASSIGN(AstExprPtr operand, expression());
  node->children.push_back(std::move(operand));
  FRESHET_RETURN_IF_ERROR(expect_keyword("as"));
  FRESHET_PARSE_ASSIGN(node->cast_type, type());
  FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "')'"));
  return node;
}

Result<AstExprPtr> Parser::extract_expression() {
  Nesting nesting(*this);
  FRESHET_RETURN_IF_ERROR(nesting.check());
  AstExprPtr node = make_expr(AstExprKind::kExtract, advance().position);
  advance();  // '('
  node->name = current().text;
  node->unit_position = current().position;
  FRESHET_PARSE_ASSIGN(node->unit, time_unit());
  FRESHET_RETURN_IF_ERROR(expect_keyword("from"));
  FRESHET_PARSE_ASSIGN(AstExprPtr operand, expression());
  node->children.push_back(std::move(operand));
  FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "')'"));
  return node;
}

//! SUBSTRING(s FROM a [FOR b]) and SUBSTRING(s, a [, b]) give the same node.
Result<AstExprPtr> Parser::substring_expression() {
  Nesting nesting(*this);
  FRESHET_RETURN_IF_ERROR(nesting.check());
  AstExprPtr node = make_expr(AstExprKind::kFunction, advance().position);
  node->name = "substring";
  advance();  // '('
  FRESHET_PARSE_ASSIGN(AstExprPtr text, expression());
  node->children.push_back(std::move(text));
  bool keyword_form = at_keyword("from");
  if (!keyword_form && !at(TokenKind::kComma)) return expected("'FROM' or ','");
  advance();
  FRESHET_PARSE_ASSIGN(AstExprPtr start, expression());
  node->children.push_back(std::move(start));
  if (keyword_form ? accept_keyword("for") : accept(TokenKind::kComma)) {
    FRESHET_PARSE_ASSIGN(AstExprPtr length, expression());
    node->children.push_back(std::move(length));
  }
  FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, keyword_form ? "'FOR' or ')'" : "',' or ')'"));
  return node;
}

bool Parser::starts_subquery(size_t ahead) const {
  const Token& token = peek(ahead);
  return is_keyword(token, "select") || is_keyword(token, "with");
}

bool Parser::at_quantifier() const {
  bool word = at_keyword("any") || at_keyword("some") || at_keyword("all");
  return word && peek(1).kind == TokenKind::kLeftParen && starts_subquery(2);
}

//! `( query )` as an expression of `kind`, the current token being '('.
Result<AstExprPtr> Parser::subquery_expression(AstExprKind kind, SourcePosition position) {
  Nesting nesting(*this);
  FRESHET_RETURN_IF_ERROR(nesting.check());
  FRESHET_RETURN_IF_ERROR(expect(TokenKind::kLeftParen, "'('"));
  AstExprPtr node = make_expr(kind, position);
  FRESHET_PARSE_ASSIGN(Query inner, query());
  node->subquery = std::make_shared<const Query>(std::move(inner));
  FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "')'"));
  return node;
}

//! `left op ANY|SOME|ALL (query)`, the current token being the quantifier.
Result<AstExprPtr> Parser::quantified_comparison(AstExprPtr left, AstOperator op, SourcePosition operator_position) {
  bool all = advance().text == "all";
  FRESHET_PARSE_ASSIGN(AstExprPtr node, subquery_expression(AstExprKind::kQuantified, left->position));
  node->op = op;
  node->operator_position = operator_position;
  node->all = all;
  node->children.push_back(std::move(left));
  return node;
}

}  // namespace freshet::sql::detail
