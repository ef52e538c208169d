// Window table functions in FROM, Feldera's (Calcite's) syntax:
//   TABLE(TUMBLE(data, DESCRIPTOR(timecol), size [, offset]))
//   TABLE(HOP(data, DESCRIPTOR(timecol), slide, size [, offset]))
// `data` is `TABLE name` or a parenthesised query. Arguments are
// positional, or named (`size => INTERVAL '1' MINUTE`) after the positional
// ones, in any order. SESSION windows parse far enough to say they are not
// supported.
#include <string>

#include "parser_internal.h"

namespace freshet::sql::detail {
namespace {

// The parameter names of each function, in positional order.
const std::vector<std::string>& parameters(TimeWindowCall::Function function) {
  static const std::vector<std::string> kTumble = {"data", "timecol", "size", "offset"};
  static const std::vector<std::string> kHop = {"data", "timecol", "slide", "size", "offset"};
  return function == TimeWindowCall::Function::kTumble ? kTumble : kHop;
}

const char* function_name(TimeWindowCall::Function function) {
  return function == TimeWindowCall::Function::kTumble ? "TUMBLE" : "HOP";
}

std::string upper(std::string text) {
  for (char& c : text) c = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
  return text;
}

//! The value of argument `name` of `function`: `TABLE t` or `(query)` for
//! DATA, `DESCRIPTOR(column)` for TIMECOL, an expression otherwise.
Status window_argument(Parser& parser, TimeWindowCall& call, const std::string& name, const std::string& function) {
  if (name == "data") {
    auto data = std::make_unique<TableRef>();
    data->position = parser.current().position;
    if (parser.accept_keyword("table")) {
      data->kind = TableRef::Kind::kTable;
      FRESHET_PARSE_ASSIGN(data->name, parser.name("a table or view name"));
    } else if (parser.accept(TokenKind::kLeftParen)) {
      data->kind = TableRef::Kind::kSubquery;
      FRESHET_PARSE_ASSIGN(Query subquery, parser.query());
      data->subquery = std::make_unique<Query>(std::move(subquery));
      FRESHET_RETURN_IF_ERROR(parser.expect(TokenKind::kRightParen, "')'"));
    } else {
      return parser.expected(function + "'s data: 'TABLE name' or '(SELECT ...)'");
    }
    call.data = std::move(data);
    return Status::OK();
  }
  if (name == "timecol") {
    if (!parser.at_keyword("descriptor")) return parser.expected(function + "'s time column: 'DESCRIPTOR(column)'");
    parser.advance();
    FRESHET_RETURN_IF_ERROR(parser.expect(TokenKind::kLeftParen, "'('"));
    call.time_position = parser.current().position;
    FRESHET_PARSE_ASSIGN(call.time_column, parser.name("a column name"));
    if (parser.at(TokenKind::kComma)) {
      return sql_error_at(parser.current().position, function + "'s DESCRIPTOR names one time column");
    }
    return parser.expect(TokenKind::kRightParen, "')'");
  }
  FRESHET_PARSE_ASSIGN(AstExprPtr value, parser.expression());
  if (name == "slide") call.slide = std::move(value);
  if (name == "size") call.size = std::move(value);
  if (name == "offset") call.offset = std::move(value);
  return Status::OK();
}

}  // namespace

Result<TableRefPtr> Parser::window_table_function(SourcePosition position) {
  Nesting nesting(*this);
  FRESHET_RETURN_IF_ERROR(nesting.check());
  auto table = std::make_unique<TableRef>();
  table->kind = TableRef::Kind::kTimeWindow;
  table->position = position;
  auto call = std::make_unique<TimeWindowCall>();
  call->position = current().position;
  if (at_keyword("session")) return sql_error_at(call->position, "SESSION windows are not supported");
  if (at_keyword("tumble")) {
    call->function = TimeWindowCall::Function::kTumble;
  } else if (at_keyword("hop")) {
    call->function = TimeWindowCall::Function::kHop;
  } else if (is_name(current())) {
    return sql_error_at(call->position, "table function " + describe_token(current()) +
                                            " is not supported; TABLE(...) takes TUMBLE or HOP");
  } else {
    return expected("'TUMBLE' or 'HOP'");
  }
  const std::string function = function_name(call->function);
  advance();
  FRESHET_RETURN_IF_ERROR(expect(TokenKind::kLeftParen, "'('"));
  const std::vector<std::string>& names = parameters(call->function);
  std::vector<bool> given(names.size(), false);
  size_t next_positional = 0;
  bool named_seen = false;
  do {
    SourcePosition argument_position = current().position;
    size_t parameter = next_positional;
    // `name => value`: the lexer makes `=>` an '=' then a '>'.
    if ((is_name(current()) || at_keyword("offset")) && peek(1).kind == TokenKind::kEqual &&
        peek(2).kind == TokenKind::kGreater) {
      const std::string& name = current().text;
      parameter = names.size();
      for (size_t i = 0; i < names.size(); ++i) {
        if (names[i] == name) parameter = i;
      }
      if (parameter == names.size()) {
        return sql_error_at(argument_position, function + " has no parameter " + describe_token(current()));
      }
      advance();
      advance();
      advance();
      named_seen = true;
    } else if (named_seen) {
      return sql_error_at(argument_position, function + ": a positional argument after a named one");
    } else {
      ++next_positional;
    }
    if (parameter >= names.size()) {
      return sql_error_at(argument_position,
                          function + " takes at most " + std::to_string(names.size()) + " arguments");
    }
    if (given[parameter]) {
      return sql_error_at(argument_position, function + "'s " + upper(names[parameter]) + " is given twice");
    }
    given[parameter] = true;
    FRESHET_RETURN_IF_ERROR(window_argument(*this, *call, names[parameter], function));
  } while (accept(TokenKind::kComma));
  FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "',' or ')'"));
  for (size_t i = 0; i + 1 < names.size(); ++i) {  // every parameter but the offset
    if (!given[i]) return sql_error_at(call->position, function + " needs its " + upper(names[i]) + " argument");
  }
  FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "')' after the table function"));
  table->time_window = std::move(call);
  return table;
}

}  // namespace freshet::sql::detail
