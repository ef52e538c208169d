// Statements (CREATE TABLE / VIEW / INDEX), the program, and the token
// helpers every part of the parser shares.
#include "freshet/sql/parser.h"

#include <algorithm>

#include "freshet/common/ascii.h"
#include "parser_internal.h"

namespace freshet::sql {
namespace detail {

AstExprPtr make_expr(AstExprKind kind, SourcePosition position) {
  auto expr = std::make_unique<AstExpr>();
  expr->kind = kind;
  expr->position = position;
  return expr;
}

bool Parser::accept(TokenKind kind) {
  if (!at(kind)) return false;
  advance();
  return true;
}

bool Parser::accept_keyword(std::string_view word) {
  if (!at_keyword(word)) return false;
  advance();
  return true;
}

Status Parser::expect(TokenKind kind, std::string_view what) {
  if (accept(kind)) return Status::OK();
  return expected(what);
}

Status Parser::expect_keyword(std::string_view word) {
  if (accept_keyword(word)) return Status::OK();
  return expected("'" + ascii_upper(word) + "'");
}

Status Parser::expected(std::string_view what) const {
  return sql_error_at(current().position, "expected " + std::string(what) + ", found " + describe_token(current()));
}

Result<std::string> Parser::name(std::string_view what) {
  if (!is_name(current())) return expected(what);
  return advance().text;
}

Result<uint64_t> Parser::unsigned_integer(std::string_view what, uint64_t max) {
  if (!at(TokenKind::kInteger)) return expected(what);
  uint64_t value = 0;
  for (char digit : current().text) {
    uint64_t d = static_cast<uint64_t>(digit - '0');
    if (value > (max - d) / 10) return expected(what);
    value = value * 10 + d;
  }
  advance();
  return value;
}

Status Parser::Nesting::check() const {
  if (parser_.depth_ <= kMaxParserNesting) return Status::OK();
  return sql_error_at(parser_.current().position,
                      "nesting too deep (more than " + std::to_string(kMaxParserNesting) + " levels)");
}

// ------------------------------------------------------------------ program

Result<Program> Parser::program() {
  Program program;
  while (!at(TokenKind::kEndOfInput)) {
    if (accept(TokenKind::kSemicolon)) continue;  // empty statement
    FRESHET_PARSE_ASSIGN(Statement statement_value, statement());
    program.statements.push_back(std::move(statement_value));
    if (!at(TokenKind::kEndOfInput)) FRESHET_RETURN_IF_ERROR(expect(TokenKind::kSemicolon, "';'"));
  }
  return program;
}

Result<Statement> Parser::statement() {
  SourcePosition position = current().position;
  if (at_keyword("lateness")) {
    return sql_error_at(position,
                        "LATENESS statements for views are not supported; declare LATENESS on the table's column");
  }
  if (at_keyword("declare")) {
    return sql_error_at(position, "DECLARE RECURSIVE VIEW (Feldera's recursive views) is not supported");
  }
  for (const char* word : {"insert", "update", "delete", "upsert", "merge"}) {
    if (at_keyword(word)) {
      return sql_error_at(position, ascii_upper(word) +
                                        " statements are not part of a program: a program declares tables and "
                                        "views; rows arrive through insert(), ingest() or an input connector");
    }
  }
  FRESHET_RETURN_IF_ERROR(expect_keyword("create"));
  if (accept_keyword("table")) {
    FRESHET_PARSE_ASSIGN(CreateTable table, create_table(position));
    return Statement(std::move(table));
  }
  if (accept_keyword("index")) {
    FRESHET_PARSE_ASSIGN(CreateIndex index, create_index(position));
    return Statement(std::move(index));
  }
  // A LOCAL view (Feldera's: not an output of the pipeline) is a view here.
  bool materialized = !accept_keyword("local") && accept_keyword("materialized");
  if (accept_keyword("view")) {
    FRESHET_PARSE_ASSIGN(CreateView view, create_view(position, materialized));
    return Statement(std::move(view));
  }
  if (at_keyword("function") || at_keyword("aggregate") || at_keyword("type")) {
    std::string what = ascii_upper(current().text);
    return sql_error_at(current().position, "CREATE " + what + " (user-defined " +
                                                (what == "TYPE" ? "types" : "functions") + ") is not supported");
  }
  return expected(materialized ? "'VIEW'" : "'TABLE', 'VIEW' or 'INDEX'");
}

namespace {

//! Applies one column constraint after the type: NOT NULL, NULL, PRIMARY KEY or LATENESS.
//! Returns false when the current token starts none of them.
Result<bool> column_constraint(Parser& parser, ColumnDefinition& column, bool& null_given, bool& not_null_given) {
  SourcePosition position = parser.current().position;
  if (parser.accept_keyword("not")) {
    FRESHET_RETURN_IF_ERROR(parser.expect_keyword("null"));
    if (null_given) return sql_error_at(position, "conflicting NULL and NOT NULL for column '" + column.name + "'");
    not_null_given = true;
    column.type.nullable = false;
    return true;
  }
  if (parser.accept_keyword("null")) {
    if (not_null_given || column.primary_key) {
      return sql_error_at(position, "conflicting NULL and NOT NULL for column '" + column.name + "'");
    }
    null_given = true;
    return true;
  }
  if (parser.accept_keyword("primary")) {
    FRESHET_RETURN_IF_ERROR(parser.expect_keyword("key"));
    if (null_given) return sql_error_at(position, "a PRIMARY KEY column cannot be NULL: '" + column.name + "'");
    column.primary_key = true;
    column.type.nullable = false;
    return true;
  }
  if (parser.accept_keyword("lateness")) {
    if (column.lateness) return sql_error_at(position, "column '" + column.name + "' has two LATENESS clauses");
    FRESHET_PARSE_ASSIGN(AstExprPtr lateness, parser.expression());
    column.lateness = std::move(lateness);
    column.lateness_position = position;
    return true;
  }
  return false;
}

Result<ColumnDefinition> column_definition(Parser& parser) {
  ColumnDefinition column;
  column.position = parser.current().position;
  FRESHET_PARSE_ASSIGN(column.name, parser.name("a column name"));
  FRESHET_PARSE_ASSIGN(column.type, parser.type());
  bool null_given = false, not_null_given = false;
  while (true) {
    FRESHET_PARSE_ASSIGN(bool matched, column_constraint(parser, column, null_given, not_null_given));
    if (!matched) return column;
  }
}

//! PRIMARY KEY (a, b) after the columns: marks them NOT NULL.
Status primary_key_clause(Parser& parser, CreateTable& table, SourcePosition position) {
  if (!table.primary_key.empty()) return sql_error_at(position, "table '" + table.name + "' has two primary keys");
  FRESHET_RETURN_IF_ERROR(parser.expect_keyword("key"));
  FRESHET_RETURN_IF_ERROR(parser.expect(TokenKind::kLeftParen, "'('"));
  do {
    SourcePosition column_position = parser.current().position;
    FRESHET_PARSE_ASSIGN(std::string column_name, parser.name("a column name"));
    auto column = std::find_if(table.columns.begin(), table.columns.end(),
                               [&](const ColumnDefinition& c) { return c.name == column_name; });
    if (column == table.columns.end()) {
      return sql_error_at(column_position, "PRIMARY KEY names unknown column '" + column_name + "'");
    }
    if (std::find(table.primary_key.begin(), table.primary_key.end(), column_name) != table.primary_key.end()) {
      return sql_error_at(column_position, "PRIMARY KEY names column '" + column_name + "' twice");
    }
    column->type.nullable = false;
    table.primary_key.push_back(std::move(column_name));
  } while (parser.accept(TokenKind::kComma));
  return parser.expect(TokenKind::kRightParen, "',' or ')'");
}

}  // namespace

Result<CreateTable> Parser::create_table(SourcePosition position) {
  CreateTable table;
  table.position = position;
  table.name_position = current().position;
  FRESHET_PARSE_ASSIGN(table.name, name("a table name"));
  FRESHET_RETURN_IF_ERROR(expect(TokenKind::kLeftParen, "'('"));
  bool clause_seen = false;
  do {
    SourcePosition element_position = current().position;
    if (accept_keyword("primary")) {
      if (clause_seen) return sql_error_at(element_position, "table '" + table.name + "' has two primary keys");
      clause_seen = true;
      FRESHET_RETURN_IF_ERROR(primary_key_clause(*this, table, element_position));
      continue;
    }
    if (clause_seen) return expected("')'");
    FRESHET_PARSE_ASSIGN(ColumnDefinition column, column_definition(*this));
    if (column.primary_key) table.primary_key.push_back(column.name);
    table.columns.push_back(std::move(column));
  } while (accept(TokenKind::kComma));
  FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "',' or ')'"));
  FRESHET_PARSE_ASSIGN(table.properties, properties());
  return table;
}

Result<CreateView> Parser::create_view(SourcePosition position, bool materialized) {
  CreateView view;
  view.position = position;
  view.materialized = materialized;
  view.name_position = current().position;
  FRESHET_PARSE_ASSIGN(view.name, name("a view name"));
  if (at(TokenKind::kLeftParen)) {
    FRESHET_PARSE_ASSIGN(view.column_names, name_list("a column name"));
  }
  FRESHET_PARSE_ASSIGN(view.properties, properties());
  FRESHET_RETURN_IF_ERROR(expect_keyword("as"));
  FRESHET_PARSE_ASSIGN(view.query, query());
  return view;
}

Result<CreateIndex> Parser::create_index(SourcePosition position) {
  CreateIndex index;
  index.position = position;
  index.name_position = current().position;
  FRESHET_PARSE_ASSIGN(index.name, name("an index name"));
  FRESHET_RETURN_IF_ERROR(expect_keyword("on"));
  index.view_position = current().position;
  FRESHET_PARSE_ASSIGN(index.view, name("a view name"));
  FRESHET_RETURN_IF_ERROR(expect(TokenKind::kLeftParen, "'('"));
  do {
    index.column_positions.push_back(current().position);
    FRESHET_PARSE_ASSIGN(std::string column, name("a column name"));
    index.columns.push_back(std::move(column));
  } while (accept(TokenKind::kComma));
  FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "',' or ')'"));
  return index;
}

Result<std::vector<std::string>> Parser::name_list(std::string_view what) {
  FRESHET_RETURN_IF_ERROR(expect(TokenKind::kLeftParen, "'('"));
  std::vector<std::string> names;
  do {
    FRESHET_PARSE_ASSIGN(std::string item, name(what));
    names.push_back(std::move(item));
  } while (accept(TokenKind::kComma));
  FRESHET_RETURN_IF_ERROR(expect(TokenKind::kRightParen, "',' or ')'"));
  return names;
}

}  // namespace detail

Result<Program> parse_program(std::string_view text) {
  FRESHET_PARSE_ASSIGN(std::vector<Token> tokens, tokenize(text));
  detail::Parser parser(std::move(tokens));
  return parser.program();
}

Result<Query> parse_query(std::string_view text) {
  FRESHET_PARSE_ASSIGN(std::vector<Token> tokens, tokenize(text));
  detail::Parser parser(std::move(tokens));
  FRESHET_PARSE_ASSIGN(Query query, parser.query());
  parser.accept(TokenKind::kSemicolon);
  if (!parser.at(TokenKind::kEndOfInput)) return parser.expected("end of input");
  return query;
}

}  // namespace freshet::sql
