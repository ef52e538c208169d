// What an SQL runtime error (division by zero, overflow, a bad cast, a
// scalar subquery with two rows) does to the view that computes it.
//   'fail'  the step fails (Feldera's rule; the default)
//   'null'  the failing expression yields NULL for that row, standard SQL's
//           NULL rules carry it up (COALESCE(1/0, 5) is 5), the row is
//           counted (stats: nulled_errors) and listed in error_view.
// Set per pipeline (CompileOptions::on_runtime_error) and per view
// (WITH ('on_runtime_error' = 'null' | 'fail'), which wins).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace freshet::sql {

enum class RuntimeErrorMode : uint8_t { kFail, kNull };

//! 'fail' or 'null' (any case); none for anything else.
std::optional<RuntimeErrorMode> parse_runtime_error_mode(std::string_view text);
const char* runtime_error_mode_name(RuntimeErrorMode mode);

}  // namespace freshet::sql
