// Test support: the fuzzers' seed corpora and regression inputs, found in the
// checkout (works natively and under node, where NODERAWFS shows the real
// filesystem).
#pragma once

#include <dirent.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/source_tree.h"

namespace freshet::testing {

//! tests/fuzz/<kind>/<target>: kind is "corpus" or "regressions".
inline std::string fuzz_folder(const std::string& kind, const std::string& target) {
  return (source_tree() / "tests" / "fuzz" / kind / target).string();
}

//! The files of a folder (READMEs aside), sorted; none when it does not exist.
inline std::vector<std::string> files_in(const std::string& folder) {
  std::vector<std::string> files;
  DIR* dir = opendir(folder.c_str());
  if (dir == nullptr) return files;
  while (dirent* entry = readdir(dir)) {
    std::string name = entry->d_name;
    if (name == "." || name == ".." || name == "README.md") continue;
    files.push_back(folder + "/" + name);
  }
  closedir(dir);
  std::sort(files.begin(), files.end());
  return files;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  std::stringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

}  // namespace freshet::testing
