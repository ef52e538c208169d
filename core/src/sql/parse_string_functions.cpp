// String functions whose arguments are separated by keywords:
//   TRIM([BOTH | LEADING | TRAILING] [characters] FROM string), TRIM(string)
//   POSITION(substring IN string)
// Both become ordinary function calls (AstExprKind::kFunction): "trim" with
// children [characters, string] and the side in `text` ("both", "leading",
// "trailing"); "position" with children [substring, string].
#include "parser_internal.h"

namespace freshet::sql::detail {

Result<AstExprPtr> Parser::trim_expression() {
  Nesting nesting(*this);
  FRESHET_RETURN_IF_ERROR(nesting.check());
  AstExprPtr node = make_expr(AstExprKind::kFunction, advance().position);
  node->name = "trim";
  node->text = "both";
  advance();  // '('
  bool has_side = false;
  for (const char* side : {"both", "leading", "trailing"}) {
    if (accept_keyword(side)) {
      node->text = side;
      has_side = true;
      break;
    }
  }
  AstExprPtr characters;
  if (!(has_side && at_keyword("from"))) {
    FRESHET_PARSE_ASSIGN(characters, expression());
  }
  if (accept_keyword("from")) {
    FRESHET_PARSE_ASSIGN(AstExprPtr text, expression());
    node->children.push_back(std::move(characters));
    node->children.push_back(std::move(text));
  } else if (has_side || !characters) {
    return expected("'FROM'");
  } else {
    node->children.push_back(nullptr);  // TRIM(string): spaces
    node->children.push_back(std::move(characters));
  }
  if (!node->children[0]) {
    AstExprPtr space = make_expr(AstExprKind::kLiteral, node->position);
    space->literal_kind = LiteralKind::kString;
    space->text = " ";
    node->children[0] = std::move(space);
  }
  FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "')'"));
  return node;
}

Result<AstExprPtr> Parser::position_expression() {
  Nesting nesting(*this);
  FRESHET_RETURN_IF_ERROR(nesting.check());
  AstExprPtr node = make_expr(AstExprKind::kFunction, advance().position);
  node->name = "position";
  advance();  // '('
  // The needle stops before IN (an operand of ||, not a predicate).
  FRESHET_PARSE_ASSIGN(AstExprPtr needle, binary_operand());
  FRESHET_RETURN_IF_ERROR(expect_keyword("in"));
  FRESHET_PARSE_ASSIGN(AstExprPtr haystack, expression());
  node->children.push_back(std::move(needle));
  node->children.push_back(std::move(haystack));
  FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "')'"));
  return node;
}

}  // namespace freshet::sql::detail
