// The circuit printer on every scenario program (tests/sql/*.test): each
// file's circuits, printed without live figures, must equal its golden file
// tests/sql/circuits/<name>.txt. A change to the planner shows here as a
// diff; when it is meant, FRESHET_UPDATE_GOLDEN=1 rewrites the files
// (tests/sql/README.md). The same files hold for every compiler (the wasm
// build's clang too): operator ids must not depend on the order a compiler
// evaluates a call's arguments in (scripts/check_operand_order.sh).
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "freshet/pipeline/program_explain.h"
#include "support/scenario_files.h"

namespace freshet::sql {
namespace {

using testing::scenario_folder;

std::filesystem::path golden_path(const std::string& scenario) {
  return scenario_folder() / "circuits" / (scenario.substr(0, scenario.size() - 5) + ".txt");
}

//! Every `program` block of `scenario`, compiled and printed.
std::string circuits_of(const std::string& scenario) {
  std::string text;
  for (const testing::ScenarioProgram& program : testing::scenario_programs()) {
    if (program.file != scenario) continue;
    text += "# program at line " + std::to_string(program.line) + "\n";
    Result<std::unique_ptr<CompiledProgram>> compiled = compile_program(program.sql);
    if (!compiled.ok()) {
      text += "error: " + compiled.status().to_string() + "\n\n";
      continue;
    }
    Result<std::vector<OperatorReport>> reports = explain_program(**compiled, "");
    text += reports.ok() ? circuit_text(*reports, /*figures=*/false) : reports.status().to_string() + "\n";
    text += "\n";
  }
  return text.empty() ? "# no program block\n" : text;
}

class CircuitGoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CircuitGoldenTest, MatchesTheGoldenFile) {
  const std::string& scenario = GetParam();
  std::string printed = circuits_of(scenario);
  std::filesystem::path path = golden_path(scenario);
  const char* update = std::getenv("FRESHET_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << printed;
    return;
  }
  std::ifstream file(path, std::ios::binary);
  ASSERT_TRUE(file) << "no golden file " << path << ": run with FRESHET_UPDATE_GOLDEN=1";
  std::stringstream golden;
  golden << file.rdbuf();
  EXPECT_EQ(printed, golden.str()) << "the circuit of " << scenario << " changed; if that is meant, "
                                   << "run with FRESHET_UPDATE_GOLDEN=1 and review the diff";
}

INSTANTIATE_TEST_SUITE_P(Sql, CircuitGoldenTest, ::testing::ValuesIn(testing::scenario_files()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param.substr(0, info.param.size() - 5);
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace freshet::sql
