// Internal invariants. A failed assertion is a bug in Freshet, never a user
// error (those are Status values), so it aborts with the place it failed.
#pragma once

namespace freshet::detail {
[[noreturn]] void assertion_failed(const char* condition, const char* file, int line);
}  // namespace freshet::detail

#define FRESHET_ASSERT(condition)                                               \
  do {                                                                          \
    if (!(condition)) ::freshet::detail::assertion_failed(#condition, __FILE__, __LINE__); \
  } while (0)
