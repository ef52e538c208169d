// The SQL reference, docs/sql.md, against the compiler:
// - every name of the function catalog (freshet/sql/functions.h) binds (its
//   binder knows it) and every unsupported one fails with an error naming it;
// - the page's function tables (those whose first column is headed
//   "Function", "Aggregate" or "Window function") list exactly the supported
//   names, and the page names every unsupported one;
// - the page's reserved words are exactly the lexer's, and its time units
//   exactly those the time functions read.
// So the test fails when the compiler accepts a function the page does not
// list, or the page lists one the compiler rejects.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "freshet/sql/compiler.h"
#include "freshet/sql/functions.h"
#include "freshet/sql/lexer.h"
#include "freshet/types/time_unit.h"
#include "support/source_tree.h"

namespace freshet::sql {
namespace {

namespace fs = std::filesystem;

std::string read_reference() {
  fs::path page = testing::source_tree() / "docs" / "sql.md";
  std::ifstream in(page);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

//! Upper-case names written as `NAME(` in the first cell of the rows of the
//! page's function tables.
std::set<std::string> documented_functions(const std::string& page) {
  static const std::regex kHeader(R"(^\| *(Function|Aggregate|Window function) *\|)");
  static const std::regex kCall(R"(`([A-Z][A-Z0-9_]*)\()");
  std::set<std::string> names;
  std::istringstream lines(page);
  std::string line;
  bool in_table = false;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] != '|') {
      in_table = false;
      continue;
    }
    if (std::regex_search(line, kHeader)) {
      in_table = true;
      continue;
    }
    if (!in_table) continue;
    // The first cell ends at the first '|' not escaped as '\|'.
    size_t end = 1;
    while (end < line.size() && !(line[end] == '|' && line[end - 1] != '\\')) ++end;
    std::string cell = line.substr(1, end - 1);
    for (std::sregex_iterator it(cell.begin(), cell.end(), kCall), last; it != last; ++it) names.insert((*it)[1]);
  }
  return names;
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

//! A program with one call of `name` the way its kind is called.
std::string call_program(const SqlFunctionName& function) {
  std::string name = lower(function.name);
  std::string call = name + "(x)";
  std::string group_by;
  if (name == "extract") call = "EXTRACT(DAY FROM d)";
  if (function.kind == SqlFunctionKind::kWindow) call += " OVER (ORDER BY x)";
  if (function.kind == SqlFunctionKind::kGrouping) group_by = " GROUP BY x";
  return "CREATE TABLE t (x INT, d DATE, s VARCHAR);\nCREATE VIEW v AS SELECT " + call + " AS r FROM t" + group_by +
         ";";
}

TEST(SqlReferenceTest, EverySupportedNameBindsAndEveryUnsupportedOneSaysSo) {
  std::vector<SqlFunctionName> functions = sql_functions();
  ASSERT_GT(functions.size(), 100u);
  for (const SqlFunctionName& function : functions) {
    std::string program = call_program(function);
    auto compiled = compile_program(program);
    if (function.kind == SqlFunctionKind::kUnsupported) {
      // An error of its own that names the function ("function LPAD() is not supported ...").
      ASSERT_FALSE(compiled.ok()) << program;
      const std::string& message = compiled.status().message();
      EXPECT_EQ(compiled.status().code(), ErrorCode::kSqlError) << message;
      EXPECT_TRUE(message.find(function.name + "()") != std::string::npos ||
                  message.find(lower(function.name) + "()") != std::string::npos)
          << message << "\n"
          << program;
      EXPECT_EQ(message.find("unknown function"), std::string::npos) << message;
      continue;
    }
    if (compiled.ok()) continue;
    // Wrong argument types or counts are fine: the name resolved to its binder.
    const std::string& message = compiled.status().message();
    EXPECT_EQ(compiled.status().code(), ErrorCode::kSqlError) << message << "\n" << program;
    for (const char* unresolved : {"unknown function", "not supported", "is not a window function",
                                   "needs an OVER clause", "is not allowed here"}) {
      EXPECT_EQ(message.find(unresolved), std::string::npos) << message << "\n" << program;
    }
  }
}

TEST(SqlReferenceTest, TheSqlReferenceListsExactlyTheSupportedFunctions) {
  std::string page = read_reference();
  ASSERT_FALSE(page.empty()) << "docs/sql.md not found";
  std::set<std::string> documented = documented_functions(page);
  std::set<std::string> supported, unsupported;
  for (const SqlFunctionName& function : sql_functions()) {
    (function.kind == SqlFunctionKind::kUnsupported ? unsupported : supported).insert(function.name);
  }
  for (const std::string& name : supported) {
    EXPECT_TRUE(documented.count(name)) << name << "() is accepted by the compiler but not listed in docs/sql.md";
  }
  for (const std::string& name : documented) {
    EXPECT_TRUE(supported.count(name)) << name << "() is listed in docs/sql.md but the compiler does not accept it";
  }
  for (const std::string& name : unsupported) {
    EXPECT_NE(page.find("`" + name + "`"), std::string::npos)
        << name << "() is rejected by name but docs/sql.md does not name it (as `" << name << "`)";
  }
}

TEST(SqlReferenceTest, TheSqlReferenceListsExactlyTheReservedWords) {
  // The page writes them in one code span after "**Reserved words**", wrapped over lines.
  std::string page = read_reference();
  size_t start = page.find("**Reserved words**");
  ASSERT_NE(start, std::string::npos);
  size_t open = page.find('`', start), close = page.find('`', open + 1);
  ASSERT_NE(close, std::string::npos);
  std::istringstream words(page.substr(open + 1, close - open - 1));
  std::set<std::string> documented;
  for (std::string word; words >> word;) documented.insert(lower(word));
  std::set<std::string> reserved;
  for (std::string_view word : reserved_words()) reserved.insert(std::string(word));
  EXPECT_EQ(documented, reserved);
}

TEST(SqlReferenceTest, TheSqlReferenceListsExactlyTheTimeUnits) {
  // The units table (first column headed "Unit") lists the units; the
  // SQL_TSI_* synonyms are named in the text above it.
  std::string page = read_reference();
  static const std::regex kWord(R"(`([A-Z][A-Z0-9_]*)`)");
  std::set<std::string> documented;
  std::istringstream lines(page);
  bool in_table = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("| Unit |", 0) == 0) {
      in_table = true;
      continue;
    }
    if (line.empty() || line[0] != '|') in_table = false;
    if (!in_table) continue;
    std::string cell = line.substr(1, line.find('|', 1) - 1);
    for (std::sregex_iterator it(cell.begin(), cell.end(), kWord), last; it != last; ++it) {
      documented.insert(lower((*it)[1]));
    }
  }
  std::set<std::string> units;
  for (std::string_view name : time_unit_names()) {
    if (name.rfind("sql_tsi_", 0) == 0) {
      std::string synonym = "`" + std::string(name) + "`";
      for (char& c : synonym) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      EXPECT_NE(page.find(synonym), std::string::npos) << synonym << " is a unit the page does not name";
    } else {
      units.insert(std::string(name));
    }
  }
  EXPECT_EQ(documented, units);
}

}  // namespace
}  // namespace freshet::sql
