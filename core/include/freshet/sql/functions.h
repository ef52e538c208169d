// The functions the SQL dialect knows by name, as the compiler resolves them
// (src/sql/function_catalog.cpp for scalar and window functions,
// src/sql/aggregate_functions.cpp for aggregates). The SQL reference
// (docs/sql.md) is tested against this list.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace freshet::sql {

//! Where a function may be called.
enum class SqlFunctionKind : uint8_t {
  kScalar,       //!< in any expression: UPPER(s), DATE_TRUNC(ts, DAY), ...
  kAggregate,    //!< over a group (GROUP BY) or a window (OVER): SUM(x), ...
  kWindow,       //!< only with OVER: ROW_NUMBER(), LAG(x), ...
  kGrouping,     //!< GROUPING(), GROUPING_ID(): the select list and HAVING of a GROUP BY
  kUnsupported,  //!< known so that the error names it: LPAD(), ARRAY_AGG(), FIRST_VALUE(), ...
};

//! One function name (upper case, as the documentation writes it) and its kind.
struct SqlFunctionName {
  std::string name;
  SqlFunctionKind kind;
};

//! Every function name the compiler resolves, in table order, read from the
//! tables the binders dispatch through (not a copy of them).
std::vector<SqlFunctionName> sql_functions();

}  // namespace freshet::sql
