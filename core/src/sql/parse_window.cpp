// Window specifications: the OVER clause of a window function call and the
// WINDOW clause of a SELECT.
//
//   OVER ( [base] [PARTITION BY expr, ...] [ORDER BY item, ...] [frame] ) | OVER name
//   frame: (ROWS | RANGE) (BETWEEN bound AND bound | bound)
//   bound: UNBOUNDED PRECEDING | expr PRECEDING | CURRENT ROW | expr FOLLOWING | UNBOUNDED FOLLOWING
//
// GROUPS frames and EXCLUDE are recognised and rejected by name.
#include <utility>

#include "parser_internal.h"

namespace freshet::sql::detail {

Result<std::unique_ptr<WindowSpec>> Parser::over_clause() {
  auto spec = std::make_unique<WindowSpec>();
  spec->position = advance().position;  // OVER
  if (!at(TokenKind::kLeftParen)) {
    FRESHET_PARSE_ASSIGN(spec->base, name("'(' or a window name"));
    return spec;
  }
  FRESHET_RETURN_IF_ERROR(window_spec(*spec));
  return spec;
}

Status Parser::window_spec(WindowSpec& spec) {
  Nesting nesting(*this);
  FRESHET_RETURN_IF_ERROR(nesting.check());
  FRESHET_RETURN_IF_ERROR(expect(TokenKind::kLeftParen, "'('"));
  if (is_name(current()) && !at_keyword("partition") && !at_keyword("rows") && !at_keyword("range") &&
      !at_keyword("groups")) {
    spec.base = advance().text;
  }
  if (accept_keyword("partition")) {
    FRESHET_RETURN_IF_ERROR(expect_keyword("by"));
    do {
      FRESHET_PARSE_ASSIGN(AstExprPtr key, expression());
      spec.partition_by.push_back(std::move(key));
    } while (accept(TokenKind::kComma));
  }
  if (accept_keyword("order")) {
    FRESHET_RETURN_IF_ERROR(expect_keyword("by"));
    do {
      OrderItem item;
      FRESHET_PARSE_ASSIGN(item.expr, expression());
      FRESHET_RETURN_IF_ERROR(order_direction(item));
      spec.order_by.push_back(std::move(item));
    } while (accept(TokenKind::kComma));
  }
  if (at_keyword("groups")) return sql_error_at(current().position, "window frame GROUPS is not supported");
  if (at_keyword("rows") || at_keyword("range")) {
    WindowFrame frame;
    frame.position = current().position;
    frame.unit = advance().text == "rows" ? FrameUnit::kRows : FrameUnit::kRange;
    if (accept_keyword("between")) {
      FRESHET_PARSE_ASSIGN(frame.start, frame_bound());
      FRESHET_RETURN_IF_ERROR(expect_keyword("and"));
      FRESHET_PARSE_ASSIGN(frame.end, frame_bound());
    } else {
      FRESHET_PARSE_ASSIGN(frame.start, frame_bound());
      if (at_keyword("and")) {
        return sql_error_at(current().position, "a window frame with two bounds needs BETWEEN: ROWS BETWEEN a AND b");
      }
      frame.end.position = frame.start.position;
      frame.end.kind = FrameBoundKind::kCurrentRow;
    }
    spec.frame = std::move(frame);
  }
  if (at_keyword("exclude")) return sql_error_at(current().position, "window frame EXCLUDE is not supported");
  return expect(TokenKind::kRightParen, "')'");
}

Result<FrameBound> Parser::frame_bound() {
  FrameBound bound;
  bound.position = current().position;
  if (accept_keyword("unbounded")) {
    if (accept_keyword("preceding")) {
      bound.kind = FrameBoundKind::kUnboundedPreceding;
    } else if (accept_keyword("following")) {
      bound.kind = FrameBoundKind::kUnboundedFollowing;
    } else {
      return expected("'PRECEDING' or 'FOLLOWING'");
    }
    return bound;
  }
  if (accept_keyword("current")) {
    FRESHET_RETURN_IF_ERROR(expect_keyword("row"));
    bound.kind = FrameBoundKind::kCurrentRow;
    return bound;
  }
  FRESHET_PARSE_ASSIGN(bound.offset, binary_operand());
  if (accept_keyword("preceding")) {
    bound.kind = FrameBoundKind::kPreceding;
  } else if (accept_keyword("following")) {
    bound.kind = FrameBoundKind::kFollowing;
  } else {
    return expected("'PRECEDING' or 'FOLLOWING'");
  }
  return bound;
}

Status Parser::order_direction(OrderItem& item) {
  if (accept_keyword("desc")) {
    item.descending = true;
  } else {
    accept_keyword("asc");
  }
  if (accept_keyword("nulls")) {
    if (accept_keyword("first")) {
      item.nulls_first = true;
    } else if (accept_keyword("last")) {
      item.nulls_first = false;
    } else {
      return expected("'FIRST' or 'LAST'");
    }
  }
  return Status::OK();
}

Status Parser::window_clause(std::vector<NamedWindow>& windows) {
  do {
    NamedWindow window;
    window.position = current().position;
    FRESHET_PARSE_ASSIGN(window.name, name("a window name"));
    FRESHET_RETURN_IF_ERROR(expect_keyword("as"));
    FRESHET_RETURN_IF_ERROR(window_spec(window.spec));
    windows.push_back(std::move(window));
  } while (accept(TokenKind::kComma));
  return Status::OK();
}

}  // namespace freshet::sql::detail
