// The aggregate functions the SQL dialect knows (Feldera's names), and what
// each takes: the one table the GROUP BY binder, the window binder and the
// "is this an aggregate?" test all read.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "freshet/operators/aggregate.h"

namespace freshet::sql {

//! What an aggregate function's argument must be.
enum class AggregateArgument : uint8_t { kAny, kNumeric, kBoolean, kInteger };

//! One aggregate function: `name(argument)`, or `name(value, compared)` for ARG_MIN/ARG_MAX.
struct AggregateFunction {
  const char* name;  //!< lower case, as the parser normalises identifiers
  AggregateKind kind;
  AggregateArgument argument;
  size_t arguments;  //!< 1, or 2 for ARG_MIN/ARG_MAX (COUNT(*) has none)
};

//! The aggregate function named `name` (lower case), or null. COUNT maps to
//! kCount; the binder makes COUNT(*) and COUNT(DISTINCT x) of it.
const AggregateFunction* find_aggregate_function(const std::string& name);

//! The whole table, for freshet::sql::sql_functions().
std::span<const AggregateFunction> aggregate_functions();

//! "a numeric", "a BOOLEAN", "an integer": what the argument must be, for messages.
const char* describe_argument(AggregateArgument argument);

//! Whether a bound argument of `type` suits `argument`.
bool argument_fits(AggregateArgument argument, const SqlType& type);

}  // namespace freshet::sql
