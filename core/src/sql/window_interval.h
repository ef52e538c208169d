// The constant intervals of window table functions and LATENESS, bound and
// evaluated at compile time.
#pragma once

#include <cstdint>
#include <string>

#include "freshet/common/status.h"
#include "freshet/sql/ast.h"

namespace freshet::sql {

//! The value in microseconds of a constant day-time interval expression
//! (`INTERVAL '1' MINUTE`). `what` names it in errors ("TUMBLE's SIZE"):
//! not an interval, a year-month interval (a month has no fixed length),
//! NULL, or not constant.
Result<int64_t> constant_interval_micros(const AstExpr& ast, const std::string& what);

}  // namespace freshet::sql
