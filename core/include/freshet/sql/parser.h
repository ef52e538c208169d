// The SQL parser: recursive descent from tokens (lexer.h) to the syntax tree
// (ast.h). It resolves no names and checks no types beyond the shape of a
// type name (DECIMAL precision and scale). Errors are kSqlError values
// "line L, column C: expected <what>, found <token>". Nesting (parentheses,
// subqueries, prefix operators, CASE, function arguments) is capped at
// kMaxParserNesting levels, so hostile input cannot exhaust the stack.
#pragma once

#include <string_view>

#include "freshet/common/status.h"
#include "freshet/sql/ast.h"

namespace freshet::sql {

//! How deeply expressions and queries may nest before the parser gives up.
inline constexpr int kMaxParserNesting = 200;
//! How many binary operators one expression may chain (`a OR b OR ...`),
//! counted with those of the expressions around it: a chain is a tree as
//! deep as it is long, which the binder walks recursively.
inline constexpr int kMaxOperatorChain = 500;
//! How deeply queries may nest in each other (FROM, expression subqueries,
//! WITH items): each level costs the binder and the planner far more stack
//! than an expression does, and wasm's stack is small.
inline constexpr int kMaxQueryNesting = 64;

//! A whole program: statements separated by ';' (a trailing ';' is optional;
//! an empty program has zero statements).
Result<Program> parse_program(std::string_view text);

//! A single query, e.g. "SELECT * FROM v" for an ad-hoc query; one trailing
//! ';' is allowed.
Result<Query> parse_query(std::string_view text);

}  // namespace freshet::sql
