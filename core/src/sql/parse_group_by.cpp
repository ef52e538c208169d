// GROUP BY clauses (Feldera's grammar, after Calcite's):
//
//   GROUP BY { ALL | [ ALL | DISTINCT ] groupItem [, groupItem ]* }
//   groupItem: expression | '(' ')' | '(' expression [, expression ]* ')'
//            | ROLLUP '(' ... ')' | CUBE '(' ... ')' | GROUPING SETS '(' groupItem, ... ')'
//
// Plain expressions go to Select::group_by, as before; as soon as one item is
// anything else, every item goes to Select::grouping (group_by_sets.cpp
// expands them into grouping sets).
#include "parser_internal.h"

namespace freshet::sql::detail {
namespace {

bool at_set_keyword(const Parser& parser) {
  return (Parser::is_keyword(parser.current(), "rollup") || Parser::is_keyword(parser.current(), "cube")) &&
         parser.peek(1).kind == TokenKind::kLeftParen;
}

bool at_grouping_sets(const Parser& parser) {
  return Parser::is_keyword(parser.current(), "grouping") && Parser::is_keyword(parser.peek(1), "sets");
}

}  // namespace

Status Parser::group_by_clause(Select& select) {
  select.has_group_by = true;
  FRESHET_RETURN_IF_ERROR(expect_keyword("by"));
  if (at_keyword("all")) {
    advance();
    // GROUP BY ALL alone groups by the select items; before items it is the default.
    const Token& next = current();
    bool starts_expression = next.kind != TokenKind::kIdentifier || next.quoted ||
                             !(is_reserved_word(next.text) || next.text == "qualify") || next.text == "case" ||
                             next.text == "cast" || next.text == "not" || next.text == "null" || next.text == "true" ||
                             next.text == "false" || next.text == "exists";
    if (next.kind == TokenKind::kEndOfInput || next.kind == TokenKind::kSemicolon ||
        next.kind == TokenKind::kRightParen || !starts_expression) {
      select.group_by_all = true;
      return Status::OK();
    }
  } else if (accept_keyword("distinct")) {
    select.group_by_distinct = true;
  }
  std::vector<GroupItem> items;
  bool plain = true;
  do {
    FRESHET_PARSE_ASSIGN(GroupItem item, group_item());
    plain = plain && item.kind == GroupItem::Kind::kExpression;
    items.push_back(std::move(item));
  } while (accept(TokenKind::kComma));
  if (plain && !select.group_by_distinct) {
    for (GroupItem& item : items) select.group_by.push_back(std::move(item.expressions[0]));
  } else {
    select.grouping = std::move(items);
  }
  return Status::OK();
}

//! `( )`, `( a, b )`, or an expression (a parenthesised one too: `(a + b) * 2`).
Result<GroupItem> Parser::group_list_or_expression() {
  GroupItem item;
  item.position = current().position;
  if (at(TokenKind::kLeftParen) && peek(1).kind == TokenKind::kRightParen) {
    advance();
    advance();
    item.kind = GroupItem::Kind::kList;
    return item;
  }
  if (at(TokenKind::kLeftParen)) {
    size_t start = index_;
    advance();
    FRESHET_PARSE_ASSIGN(AstExprPtr first, expression());
    if (accept(TokenKind::kComma)) {
      item.kind = GroupItem::Kind::kList;
      item.expressions.push_back(std::move(first));
      do {
        FRESHET_PARSE_ASSIGN(AstExprPtr next, expression());
        item.expressions.push_back(std::move(next));
      } while (accept(TokenKind::kComma));
      FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "',' or ')'"));
      return item;
    }
    index_ = start;  // one element: parse it again as a whole expression
  }
  FRESHET_PARSE_ASSIGN(AstExprPtr expr, expression());
  item.expressions.push_back(std::move(expr));
  return item;
}

Result<GroupItem> Parser::group_item() {
  Nesting nesting(*this);
  FRESHET_RETURN_IF_ERROR(nesting.check());
  if (at_grouping_sets(*this)) {
    GroupItem item;
    item.kind = GroupItem::Kind::kGroupingSets;
    item.position = advance().position;
    advance();  // SETS
    FRESHET_RETURN_IF_ERROR(expect(TokenKind::kLeftParen, "'('"));
    do {
      FRESHET_PARSE_ASSIGN(GroupItem element, group_item());
      item.items.push_back(std::move(element));
    } while (accept(TokenKind::kComma));
    FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "',' or ')'"));
    return item;
  }
  if (at_set_keyword(*this)) {
    GroupItem item;
    item.kind = at_keyword("rollup") ? GroupItem::Kind::kRollup : GroupItem::Kind::kCube;
    item.position = advance().position;
    advance();  // (
    do {
      FRESHET_PARSE_ASSIGN(GroupItem element, group_list_or_expression());
      if (element.kind == GroupItem::Kind::kList && element.expressions.empty()) {
        return sql_error_at(element.position, "() is not allowed inside ROLLUP or CUBE");
      }
      item.element_sizes.push_back(element.expressions.size());
      for (AstExprPtr& expr : element.expressions) item.expressions.push_back(std::move(expr));
    } while (accept(TokenKind::kComma));
    FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "',' or ')'"));
    return item;
  }
  return group_list_or_expression();
}

}  // namespace freshet::sql::detail
