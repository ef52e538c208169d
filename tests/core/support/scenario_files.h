// Test support: the SQL scenario files of tests/sql/ (format in
// tests/sql/README.md) and the programs they compile.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/source_tree.h"

namespace freshet::testing {

//! tests/sql/.
inline std::filesystem::path scenario_folder() { return source_tree() / "tests" / "sql"; }

//! The names of the scenario files, sorted.
inline std::vector<std::string> scenario_files() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(scenario_folder())) {
    if (entry.path().extension() == ".test") files.push_back(entry.path().filename().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

//! One `program` block: the SQL up to its `----` line, and where it is.
struct ScenarioProgram {
  std::string file;
  size_t line = 0;  //!< of the `program` command, from 1
  std::string sql;
};

//! Every `program` block of every scenario file, in file order.
inline std::vector<ScenarioProgram> scenario_programs() {
  std::vector<ScenarioProgram> programs;
  for (const std::string& name : scenario_files()) {
    std::ifstream file(scenario_folder() / name);
    std::vector<std::string> lines;
    for (std::string line; std::getline(file, line);) lines.push_back(line);
    for (size_t i = 0; i < lines.size(); ++i) {
      if (lines[i] != "program") continue;
      ScenarioProgram program{name, i + 1, ""};
      for (++i; i < lines.size() && lines[i] != "----"; ++i) program.sql += lines[i] + "\n";
      programs.push_back(std::move(program));
    }
  }
  return programs;
}

}  // namespace freshet::testing
