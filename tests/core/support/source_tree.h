// Test support: where the checkout is, for the tests that read its files
// (scenarios, fixtures, fuzz corpora, docs/sql.md).
//
// Not from __FILE__: builds that go through ccache (the top CMakeLists.txt)
// compile with the checkout's paths rewritten relative to the build folder,
// so that a fresh clone elsewhere reuses the cached objects; __FILE__ is then
// relative too. CMake hands the checkout's root to source_tree.cpp alone.
#pragma once

#include <filesystem>

namespace freshet::testing {

//! The checkout's root folder (the one holding tests/, docs/, core/).
std::filesystem::path source_tree();

}  // namespace freshet::testing
