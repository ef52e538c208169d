// Scope: the columns a query's expressions can name at one point of the
// binder, with the table (or alias) each came from.
#pragma once

#include <string>
#include <vector>

#include "freshet/common/status.h"
#include "freshet/sql/ast.h"

namespace freshet::sql {

struct ScopeColumn {
  std::string table;  //!< alias or table name; empty for computed columns
  std::string name;
  SqlType type;
  //! Reachable only by its qualified name (t.a) and t.*, not by a bare name
  //! or *: each side's copy of a USING / NATURAL join column, and the
  //! columns the binder adds for a subquery's facts (bind_subquery.cpp).
  bool hidden = false;
};

struct Scope {
  std::vector<ScopeColumn> columns;

  //! Position of the column `names` (["col"] or ["table", "col"]) refers to.
  Result<size_t> resolve(const std::vector<std::string>& names, SourcePosition position) const;
  //! Whether any column comes from `table`.
  bool has_table(const std::string& table) const;
};

//! "line 3, column 14: <message>" as an SQL_ERROR.
Status sql_error(SourcePosition position, const std::string& message);

}  // namespace freshet::sql
