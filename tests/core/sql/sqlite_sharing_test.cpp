// Sharing (plan_sharing.h) in the program of the SQLite differential test:
// that test runs its views with sharing, compile_program's default, against
// SQLite; this one checks that some of them do share. Native only, like
// every sqlite_*.cpp (tests/CMakeLists.txt).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "freshet/sql/compiler.h"
#include "sqlite_differential_queries.h"

namespace freshet::sql {
namespace {

TEST(SharingTest, TheDifferentialProgramShares) {
  // The SQLite differential test runs these views with sharing (its
  // default) against SQLite; here: that it does share some of them.
  std::string sql = R"(
CREATE TABLE emp (id BIGINT NOT NULL PRIMARY KEY, dept INT, name VARCHAR, salary DOUBLE, bonus INT, hired DATE);
CREATE TABLE dept (id INT NOT NULL, dname VARCHAR, budget BIGINT, region VARCHAR, PRIMARY KEY (id));
CREATE TABLE ev (emp_id BIGINT, kind VARCHAR, amount INT, score DOUBLE);
CREATE TABLE tag (k INT NOT NULL, label VARCHAR);
)";
  for (const testing::DifferentialQuery& query : testing::differential_queries()) {
    sql += std::string("CREATE VIEW ") + query.name + " AS " + query.sql + ";\n";
  }
  CompileOptions unshared_options;
  unshared_options.share_subplans = false;
  auto shared_result = compile_program(sql);
  auto unshared_result = compile_program(sql, unshared_options);
  ASSERT_TRUE(shared_result.ok()) << shared_result.status().to_string();
  ASSERT_TRUE(unshared_result.ok()) << unshared_result.status().to_string();
  const CompiledProgram* shared = shared_result->get();
  const CompiledProgram* unshared = unshared_result->get();
  EXPECT_GT(shared->reused_subplans, 0u);
  EXPECT_LT(shared->circuit->operator_count(), unshared->circuit->operator_count());
  std::printf("[ sharing  ] %zu views: %zu operators shared, %zu unshared; %zu sub-plans reused\n",
              shared->views.size(), shared->circuit->operator_count(), unshared->circuit->operator_count(),
              shared->reused_subplans);
}

}  // namespace
}  // namespace freshet::sql
