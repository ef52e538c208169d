// Scope: the columns a query's expressions can name at one point of the
// binder, with the table (or alias) each came from.
#pragma once

#include <string>
#include <vector>

#include "freshet/common/status.h"
#include "freshet/sql/ast.h"
#include "freshet/sql/expression.h"

namespace freshet::sql {

struct ScopeColumn {
  std::string table;  //!< alias or table name; empty for computed columns
  std::string name;
  SqlType type;
  //! Reachable only by its qualified name (t.a) and t.*, not by a bare name
  //! or *: each side's copy of a USING / NATURAL join column.
  bool hidden = false;
  //! A column the binder added ($fact0, $k0...: a subquery's facts and keys,
  //! bind_subquery.cpp): found by its name, never by `*` or `t.*`.
  bool internal = false;
  //! Every row holds a bare NULL here (a subquery's or WITH item's `SELECT
  //! NULL AS x`): a reference to it is a bare NULL, typed by its context
  //! (docs/sql.md, "The type of NULL"), not by the INTEGER default.
  bool null_only = false;
};

struct Scope {
  std::vector<ScopeColumn> columns;

  //! Position of the column `names` (["col"] or ["table", "col"]) refers to.
  Result<size_t> resolve(const std::vector<std::string>& names, SourcePosition position) const;
  //! Whether any column comes from `table`.
  bool has_table(const std::string& table) const;
  //! The columns' names for messages and explain: "t.a" where a bare "a"
  //! would name more than one column.
  ColumnNames column_names() const;
};

//! The columns `*` or `t.*` (a select item) stands for, in order: every
//! column of `t` (all for `*`) but the binder's internal ones, and for `*`
//! not the hidden copies of USING/NATURAL columns either. An error for a `t`
//! the scope does not hold.
Result<std::vector<size_t>> star_columns(const Scope& scope, const SelectItem& item);

//! The name SQL gives the output column of select item `index`: its alias,
//! the column it names, or EXPR$index (Calcite's).
std::string output_name(const SelectItem& item, size_t index);

//! "line 3, column 14: <message>" as an SQL_ERROR.
Status sql_error(SourcePosition position, const std::string& message);

}  // namespace freshet::sql
