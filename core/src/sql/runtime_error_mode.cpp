#include "freshet/sql/runtime_error_mode.h"

#include <string>

#include "freshet/common/ascii.h"

namespace freshet::sql {

std::optional<RuntimeErrorMode> parse_runtime_error_mode(std::string_view text) {
  std::string lower = ascii_lower(std::string(text));
  if (lower == "fail") return RuntimeErrorMode::kFail;
  if (lower == "null") return RuntimeErrorMode::kNull;
  return std::nullopt;
}

const char* runtime_error_mode_name(RuntimeErrorMode mode) { return mode == RuntimeErrorMode::kNull ? "null" : "fail"; }

}  // namespace freshet::sql
