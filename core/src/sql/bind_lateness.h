// LATENESS on a table column: its value in the column's own unit.
#pragma once

#include <cstdint>

#include "freshet/common/status.h"
#include "freshet/sql/ast.h"

namespace freshet::sql {

//! The lateness of `column` (which has one) in its time unit: microseconds
//! for TIMESTAMP (a day-time interval), days for DATE (whole days), the
//! number itself for integer columns (an integer constant). Negative
//! values and other column types are errors that name LATENESS.
Result<int64_t> bind_lateness(const ColumnDefinition& column);

}  // namespace freshet::sql
