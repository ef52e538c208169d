#include "freshet/common/assert.h"

#include <cstdio>
#include <cstdlib>

namespace freshet::detail {

void assertion_failed(const char* condition, const char* file, int line) {
  std::fprintf(stderr, "freshet: internal assertion failed: %s (%s:%d)\n", condition, file, line);
  std::abort();
}

}  // namespace freshet::detail
