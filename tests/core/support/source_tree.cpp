// The checkout's root, as CMake configured it (tests/CMakeLists.txt defines
// FRESHET_SOURCE_TREE for this file only: only it misses the compile cache
// when the checkout moves).
#include "support/source_tree.h"

namespace freshet::testing {

std::filesystem::path source_tree() { return FRESHET_SOURCE_TREE; }

}  // namespace freshet::testing
