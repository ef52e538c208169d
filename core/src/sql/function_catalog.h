// The scalar and window functions of the SQL dialect: one table, by name,
// that the binders dispatch through (bind_node.cpp for calls in expressions,
// bind_window.cpp for calls with OVER). A name that is not here (nor an
// aggregate of aggregate_functions.h) is an unknown function; a name here is
// bound by the binder its entry names, which must know it
// (tests/core/sql/sql_reference_test.cpp compiles a call of every entry).
// sql_functions() (freshet/sql/functions.h) lists this table and the
// aggregates' for that test, which checks docs/sql.md against them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "freshet/sql/functions.h"

namespace freshet::sql {

//! Which binder binds a function's calls.
enum class FunctionBinder : uint8_t {
  kGeneral,     //!< ExpressionBinder::bind_function itself: ABS, ROUND, LOWER, SUBSTRING, NOW, ...
  kCoalesce,    //!< COALESCE, IFNULL, NVL (bind_function)
  kString,      //!< bind_string_function (bind_string_functions.cpp)
  kMath,        //!< bind_math_function (bind_math_functions.cpp)
  kComparison,  //!< bind_comparison_function (bind_math_functions.cpp): NULLIF, GREATEST, LEAST
  kTime,        //!< bind_time_function (bind_time_functions.cpp)
  kExtract,     //!< EXTRACT(unit FROM x): parsed into its own node, bound by bind_extract
  kRank,        //!< ROW_NUMBER, RANK, DENSE_RANK (bind_window.cpp)
  kOffset,      //!< LAG, LEAD (bind_window.cpp)
  kFrameValue,  //!< FIRST_VALUE, LAST_VALUE (bind_window.cpp)
  kGrouping,    //!< GROUPING, GROUPING_ID (group_by_sets.cpp)
  kNone,        //!< an unsupported function: its entry says why
};

//! How the error for an unsupported function reads.
enum class Unsupported : uint8_t {
  kNo,
  kFelderaLacks,  //!< "function LPAD() is not supported (Feldera's SQL has no LPAD)"
  kWindow,        //!< "window function first_value() is not supported"
  kAggregate,     //!< "aggregate ARRAY_AGG() is not supported"
  kNotYet,        //!< a Feldera function Freshet lacks: "function FORMAT_DATE() is not supported"
  kHint,          //!< the entry's `hint` is the whole message
};

//! One scalar, window or grouping function, or an unsupported one.
struct FunctionEntry {
  const char* name;  //!< lower case, as the parser normalises identifiers
  SqlFunctionKind kind;
  FunctionBinder binder;
  Unsupported unsupported = Unsupported::kNo;
  const char* hint = nullptr;  //!< Unsupported::kHint's message
};

//! The entry named `name` (lower case), or null: then the name is an
//! aggregate (find_aggregate_function) or unknown.
const FunctionEntry* find_function(std::string_view name);

//! The compile error's message for an unsupported function's call.
std::string unsupported_message(const FunctionEntry& entry);

//! Whether `name` is GROUPING or GROUPING_ID.
bool is_grouping_function(std::string_view name);

}  // namespace freshet::sql
