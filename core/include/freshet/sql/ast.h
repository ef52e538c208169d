// The syntax tree of a Freshet SQL program (docs/sql.md), as the parser builds
// it and before any name or type is resolved. Identifiers are already
// normalised: lower-cased unless they were quoted ("Foo" stays Foo). Every
// node carries the position of its first token, for error messages.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "freshet/types/sql_type.h"
#include "freshet/types/time_unit.h"

namespace freshet::sql {

//! 1-based line and column of a token in the program text.
struct SourcePosition {
  uint32_t line = 1;
  uint32_t column = 1;
};

// ---------------------------------------------------------------- expressions

enum class AstExprKind : uint8_t {
  kLiteral,     //!< literal_kind + text
  kColumnRef,   //!< names: ["col"] or ["table", "col"]
  kUnary,       //!< op: kNegate | kNot; children[0]
  kBinary,      //!< op: arithmetic, comparison, AND, OR, ||; children[0], children[1]
  kIsNull,      //!< children[0] IS [NOT] NULL (negated)
  kIsDistinct,  //!< children[0] IS [NOT] DISTINCT FROM children[1] (negated: NOT DISTINCT)
  kIsTruth,     //!< children[0] IS [NOT] TRUE | FALSE | UNKNOWN (text; negated)
  kBetween,     //!< children[0] [NOT] BETWEEN children[1] AND children[2]
  kInList,      //!< children[0] [NOT] IN (children[1..])
  kLike,        //!< children[0] [NOT] LIKE children[1]
  kCase,        //!< see AstExpr::case_operand / children / else
  kCast,        //!< CAST(children[0] AS cast_type)
  kFunction,    //!< name(children...), COUNT(*) has star, COUNT(DISTINCT x) has distinct
  kExtract,     //!< EXTRACT(unit FROM children[0]) (DATE_PART(unit, x) too); name is the field's keyword
  //! (children[0] - children[1]) <qualifier>: an interval of type cast_type
  kDatetimeDifference,
  // Subqueries (the query is `subquery`; bind_subquery.cpp):
  kSubquery,    //!< a scalar subquery `(SELECT ...)`
  kExists,      //!< EXISTS (subquery); NOT EXISTS is kUnary kNot over it
  kInSubquery,  //!< children[0] [NOT] IN (subquery) (negated)
  kQuantified,  //!< children[0] op ANY|SOME|ALL (subquery): op a comparison, `all` for ALL
};

enum class AstOperator : uint8_t {
  kNone,
  kNegate, kNot,                                  // unary
  kAdd, kSubtract, kMultiply, kDivide, kModulo,   // arithmetic
  kEqual, kNotEqual, kLess, kLessEqual, kGreater, kGreaterEqual,
  kAnd, kOr,
  kConcat,                                        // ||
};

enum class LiteralKind : uint8_t {
  kNull,
  kBoolean,    //!< text "true" | "false"
  kInteger,    //!< digits only: "42"
  kDecimal,    //!< digits with a point: "12.50"
  kFloat,      //!< with an exponent: "1e3", "2.5E-2"
  kString,     //!< the unescaped contents of '...'
  kDate,       //!< DATE '2024-01-02': text is the string's contents
  kTimestamp,  //!< TIMESTAMP '2024-01-02 10:00:00'
  kTime,       //!< TIME '10:00:00'
  kInterval,   //!< INTERVAL '1 02:00' DAY TO MINUTE: text is the string, cast_type the interval type
};

struct AstExpr;
using AstExprPtr = std::unique_ptr<AstExpr>;
struct WindowSpec;
struct Query;

struct AstExpr {
  AstExprKind kind;
  SourcePosition position;
  SourcePosition operator_position;  //!< kBinary: the operator's token (type errors point there)
  AstOperator op = AstOperator::kNone;
  LiteralKind literal_kind = LiteralKind::kNull;
  std::string text;                 //!< literal text
  std::vector<std::string> names;   //!< column reference parts
  std::string name;                 //!< function name (lower-cased) or EXTRACT field
  bool negated = false;             //!< IS NOT NULL, NOT BETWEEN, NOT IN, NOT LIKE
  bool distinct = false;            //!< COUNT(DISTINCT x)
  bool star = false;                //!< COUNT(*)
  std::vector<AstExprPtr> children;
  //! CASE: `CASE [case_operand] WHEN children[2i] THEN children[2i+1] ... [ELSE else_result] END`
  AstExprPtr case_operand;
  AstExprPtr else_result;
  SqlType cast_type;                //!< CAST target (nullable); an interval literal's or (a - b)'s type
  //! EXTRACT's field, or the time unit keyword of DATE_TRUNC(x, unit),
  //! FLOOR(x TO unit), TIMESTAMPADD(unit, n, x)... (not among `children`).
  std::optional<TimeUnit> unit;
  SourcePosition unit_position;
  //! kFunction: `OVER (...)` or `OVER name` makes it a window function call.
  std::unique_ptr<WindowSpec> over;
  //! kFunction: an aggregate's `FILTER (WHERE filter)`.
  AstExprPtr filter;
  //! kSubquery, kExists, kInSubquery, kQuantified: the subquery (shared, so
  //! the binder can copy the node).
  std::shared_ptr<const Query> subquery;
  bool all = false;  //!< kQuantified: ALL (else ANY / SOME)
};

// -------------------------------------------------------------------- queries

struct OrderItem {
  AstExprPtr expr;
  bool descending = false;
  std::optional<bool> nulls_first;  //!< NULLS FIRST / NULLS LAST when given
};

// ------------------------------------------------------------ window specs

//! ROWS or RANGE (GROUPS is rejected by the parser).
enum class FrameUnit : uint8_t { kRows, kRange };

enum class FrameBoundKind : uint8_t { kUnboundedPreceding, kPreceding, kCurrentRow, kFollowing, kUnboundedFollowing };

//! One end of a window frame: `n PRECEDING` and `n FOLLOWING` have an offset.
struct FrameBound {
  SourcePosition position;
  FrameBoundKind kind = FrameBoundKind::kCurrentRow;
  AstExprPtr offset;
};

//! `ROWS|RANGE BETWEEN start AND end`; the short form `ROWS start` ends at CURRENT ROW.
struct WindowFrame {
  SourcePosition position;
  FrameUnit unit = FrameUnit::kRange;
  FrameBound start, end;
};

//! `OVER ([base] [PARTITION BY ...] [ORDER BY ...] [frame])`, or `OVER name`.
struct WindowSpec {
  SourcePosition position;
  std::string base;  //!< a window named in the WINDOW clause, empty when none
  std::vector<AstExprPtr> partition_by;
  std::vector<OrderItem> order_by;
  std::optional<WindowFrame> frame;
};

//! `WINDOW name AS (spec)` of a SELECT.
struct NamedWindow {
  SourcePosition position;
  std::string name;
  WindowSpec spec;
};

struct Query;

struct SelectItem {
  SourcePosition position;
  AstExprPtr expr;              //!< null for `*` and `t.*`
  bool star = false;
  std::string star_table;       //!< "t" for `t.*`, empty for `*`
  std::string alias;            //!< empty when none
};

//! kRight and kFull are RIGHT [OUTER] and FULL [OUTER] JOIN. kAnti is
//! no SQL join: the binder's plan of a WHERE conjunct `NOT EXISTS (q)`, the
//! left rows whose keys match no row of the right (its rows are the left's).
enum class JoinType : uint8_t { kInner, kLeft, kCross, kRight, kFull, kAnti };

//! One item of GROUP BY beyond a plain expression: `()` or `(a, b)`,
//! `ROLLUP(...)`, `CUBE(...)`, `GROUPING SETS (...)` (whose elements are
//! items themselves).
struct GroupItem {
  enum class Kind : uint8_t { kExpression, kList, kRollup, kCube, kGroupingSets } kind = Kind::kExpression;
  SourcePosition position;
  std::vector<AstExprPtr> expressions;  //!< kExpression: one; kList, kRollup, kCube: the elements
  //! kRollup / kCube: the size of each element ((a, b) counts 2), in order.
  std::vector<size_t> element_sizes;
  std::vector<GroupItem> items;  //!< kGroupingSets
};

struct TableRef;
using TableRefPtr = std::unique_ptr<TableRef>;

//! A window table function in FROM, `TABLE(TUMBLE(...))` or `TABLE(HOP(...))`:
//! `TUMBLE(data, DESCRIPTOR(timecol), size [, offset])`,
//! `HOP(data, DESCRIPTOR(timecol), slide, size [, offset])`.
struct TimeWindowCall {
  enum class Function : uint8_t { kTumble, kHop } function = Function::kTumble;
  SourcePosition position;  //!< of TUMBLE / HOP
  TableRefPtr data;         //!< `TABLE t` (kTable) or `(SELECT ...)` (kSubquery)
  std::string time_column;  //!< DESCRIPTOR(timecol)
  SourcePosition time_position;
  AstExprPtr slide;  //!< HOP only
  AstExprPtr size;
  AstExprPtr offset;  //!< null when not given
};

struct TableRef {
  enum class Kind : uint8_t { kTable, kSubquery, kJoin, kTimeWindow } kind;
  SourcePosition position;
  std::string name;                 //!< kTable: table or view name
  std::string alias;                //!< kTable / kSubquery: empty when none
  std::unique_ptr<Query> subquery;  //!< kSubquery
  bool lateral = false;             //!< kSubquery: LATERAL (SELECT ...)
  JoinType join_type = JoinType::kInner;  //!< kJoin
  TableRefPtr left, right;                //!< kJoin
  AstExprPtr condition;                   //!< kJoin: ON condition; null for CROSS JOIN
  //! `AS t (a, b)`: new names for the item's columns, in order; empty when none.
  std::vector<std::string> column_aliases;
  bool natural = false;                   //!< kJoin: NATURAL JOIN
  std::vector<std::string> using_columns;  //!< kJoin: USING (a, b); empty when none
  std::vector<SourcePosition> using_positions;
  std::unique_ptr<TimeWindowCall> time_window;     //!< kTimeWindow
};

struct Select {
  SourcePosition position;
  bool distinct = false;
  std::vector<SelectItem> items;
  TableRefPtr from;                 //!< null when there is no FROM; `FROM a, b` is a cross join
  AstExprPtr where;
  std::vector<AstExprPtr> group_by;
  AstExprPtr having;
  std::vector<NamedWindow> windows;  //!< the WINDOW clause
  //! GROUP BY when it holds more than plain expressions (`()`, ROLLUP, CUBE,
  //! GROUPING SETS); `group_by` then holds nothing. See group_by_sets.cpp.
  std::vector<GroupItem> grouping;
  bool has_group_by = false;            //!< a GROUP BY clause, even `GROUP BY ()` or `GROUP BY ALL`
  bool group_by_all = false;            //!< `GROUP BY ALL`: every select item without an aggregate
  bool group_by_distinct = false;       //!< `GROUP BY DISTINCT ...`: duplicate grouping sets once
  AstExprPtr qualify;                   //!< QUALIFY condition (over window function results)
  std::vector<AstExprPtr> distinct_on;  //!< SELECT DISTINCT ON (...)
  SourcePosition distinct_on_position;
};

//! UNION, EXCEPT (MINUS) and INTERSECT; the ALL forms keep multiplicities.
enum class SetOperator : uint8_t { kUnion, kUnionAll, kExcept, kExceptAll, kIntersect, kIntersectAll };

//! `name [(column, ...)] AS (query)` of a WITH clause.
struct CommonTableExpression {
  SourcePosition position;
  std::string name;
  std::vector<std::string> column_names;  //!< empty when none
  std::unique_ptr<Query> query;
};

struct Query {
  SourcePosition position;
  //! A SELECT, a VALUES list (`values`), or a set operation over two
  //! queries (left-associative; INTERSECT binds tighter than UNION and EXCEPT).
  std::unique_ptr<Select> select;
  SetOperator set_operator = SetOperator::kUnion;
  SourcePosition operator_position;  //!< a set operation's keyword
  std::unique_ptr<Query> left, right;
  //! `VALUES (a, b), (c, d)`: one list of expressions per row; empty otherwise.
  std::vector<std::vector<AstExprPtr>> values;
  std::vector<SourcePosition> value_positions;  //!< each row's first token
  //! `WITH a AS (...), b AS (...)` before the query: seen by the whole
  //! query, each by the ones after it (an inner WITH's items follow the outer's).
  std::vector<CommonTableExpression> with;
  std::vector<OrderItem> order_by;
  std::optional<uint64_t> limit;
  std::optional<uint64_t> offset;  //!< OFFSET n: rows of the order skipped before LIMIT counts
};

// ----------------------------------------------------------------- statements

struct ColumnDefinition {
  SourcePosition position;
  std::string name;
  SqlType type;  //!< nullable unless NOT NULL (or PRIMARY KEY)
  bool primary_key = false;  //!< inline PRIMARY KEY
  //! `LATENESS expr` (Feldera's): rows more than this behind the column's
  //! largest value so far are dropped. Null when not given.
  std::shared_ptr<const AstExpr> lateness;
  SourcePosition lateness_position;
};

//! One `'key' = 'value'` of a statement's WITH (...) list (Feldera's
//! keyValueList): both sides are string literals.
struct Property {
  std::string key, value;
  SourcePosition key_position, value_position;
};

struct CreateTable {
  SourcePosition position;
  SourcePosition name_position;
  std::string name;
  std::vector<ColumnDefinition> columns;
  //! The key columns: from a PRIMARY KEY (...) clause or inline markers, in order.
  std::vector<std::string> primary_key;
  std::vector<Property> properties;  //!< WITH (...) after the columns; empty when none
};

struct CreateView {
  SourcePosition position;
  SourcePosition name_position;
  std::string name;
  bool materialized = false;
  std::vector<std::string> column_names;  //!< CREATE VIEW v (a, b) AS ...; empty when none
  std::vector<Property> properties;       //!< WITH (...) before AS; empty when none
  Query query;
};

struct CreateIndex {
  SourcePosition position;
  SourcePosition name_position, view_position;
  std::string name;
  std::string view;
  std::vector<std::string> columns;
  std::vector<SourcePosition> column_positions;
};

using Statement = std::variant<CreateTable, CreateView, CreateIndex>;

struct Program {
  std::vector<Statement> statements;
};

}  // namespace freshet::sql
