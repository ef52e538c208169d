// WITH (...) properties of tables and views (sql/properties.h): parsed as
// Feldera's keyValueList, 'materialized' and 'connectors' honoured, other
// known and unknown keys kept as warnings with their positions.
#include <gtest/gtest.h>

#include "freshet/sql/compiler.h"

namespace freshet::sql {
namespace {

std::unique_ptr<CompiledProgram> compile(const std::string& sql) {
  Result<std::unique_ptr<CompiledProgram>> program = compile_program(sql);
  EXPECT_TRUE(program.ok()) << program.status().to_string();
  return program.ok() ? std::move(*program) : nullptr;
}

std::string error_of(const std::string& sql) {
  Result<std::unique_ptr<CompiledProgram>> program = compile_program(sql);
  return program.ok() ? "compiled" : program.status().message();
}

TEST(PropertiesTest, MaterializedTableIsAlsoAView) {
  auto program = compile(
      "CREATE TABLE t (x INT) WITH ('materialized' = 'true', 'expected_size' = '10');\n"
      "CREATE TABLE u (x INT) WITH ('materialized' = 'FALSE');\n"
      "CREATE VIEW v AS SELECT x FROM t;");
  ASSERT_TRUE(program);
  EXPECT_TRUE(program->tables[0].materialized);
  EXPECT_FALSE(program->tables[1].materialized);
  ASSERT_EQ(program->table_views.size(), 1u);
  EXPECT_EQ(program->table_views[0].name, "t");
  EXPECT_TRUE(program->table_views[0].materialized);
  EXPECT_EQ(program->views.size(), 1u);
  EXPECT_TRUE(program->warnings.empty());
  EXPECT_EQ(program->tables[0].properties.size(), 2u);
}

TEST(PropertiesTest, UnknownAndUnhonouredPropertiesAreWarnings) {
  auto program = compile(
      "CREATE TABLE t (x INT) WITH ('append_only' = 'true', 'colour' = 'blue');\n"
      "CREATE VIEW v WITH ('emit_final' = 'x', 'shape' = 'round') AS SELECT x FROM t;");
  ASSERT_TRUE(program);
  ASSERT_EQ(program->warnings.size(), 4u);
  EXPECT_EQ(program->warnings[0].message,
            "property 'append_only' of table 't' is accepted but not enforced: deletes are applied");
  EXPECT_EQ(program->warnings[1].message, "unknown property 'colour' of table 't' is ignored");
  EXPECT_EQ(program->warnings[1].position.line, 1u);
  EXPECT_EQ(program->warnings[1].position.column, 54u);
  EXPECT_EQ(program->warnings[2].message,
            "property 'emit_final' of view 'v' is not supported: the view emits every change");
  EXPECT_EQ(program->warnings[3].position.line, 2u);
  EXPECT_EQ(program->warnings[3].position.column, 41u);
}

TEST(PropertiesTest, Connectors) {
  auto program = compile(
      "CREATE TABLE t (x INT) WITH ('connectors' = '[{\"transport\": {\"name\": \"http_input\"}}]');\n"
      "CREATE MATERIALIZED VIEW v WITH ('connectors' = '[{\"name\": \"out\", \"transport\": {\"name\": "
      "\"http_output\"}, \"format\": {\"name\": \"json\"}}]') AS SELECT x FROM t;");
  ASSERT_TRUE(program);
  EXPECT_EQ(program->tables[0].connectors, "[{\"transport\": {\"name\": \"http_input\"}}]");
  EXPECT_NE(program->views[0].connectors.find("http_output"), std::string::npos);
  EXPECT_EQ(
      error_of("CREATE TABLE t (x INT) WITH (\n  'connectors' = '[{\"transport\": {\"name\": \"kafka_input\"}}]');"),
      "line 2, column 18: property 'connectors' of table 't': connector 0 uses transport 'kafka_input', which "
      "Freshet does not have; Freshet's transports here: http_input");
  EXPECT_EQ(error_of("CREATE TABLE t (x INT);\nCREATE VIEW v WITH ('connectors' = '[{\"transport\": {\"name\": "
                     "\"http_input\"}}]') AS SELECT * FROM t;"),
            "line 2, column 36: property 'connectors' of view 'v': connector 0 uses transport 'http_input', which "
            "Freshet does not have; Freshet's transports here: http_output");
  EXPECT_EQ(error_of("CREATE TABLE t (x INT) WITH ('connectors' = '[{'); "),
            "line 1, column 45: property 'connectors' of table 't': not valid JSON (a JSON array of connectors is "
            "expected)");
  EXPECT_EQ(error_of("CREATE TABLE t (x INT) WITH ('connectors' = '{}');"),
            "line 1, column 45: property 'connectors' of table 't': a JSON array of connectors is expected");
  EXPECT_EQ(error_of("CREATE TABLE t (x INT) WITH ('connectors' = '[{\"format\": {}}]');"),
            "line 1, column 45: property 'connectors' of table 't': connector 0 has no \"transport\": {\"name\": ...}");
}

TEST(PropertiesTest, SyntaxAndValueErrors) {
  EXPECT_EQ(error_of("CREATE TABLE t (x INT) WITH ('materialized' = 'yes');"),
            "line 1, column 47: property 'materialized' of table 't' must be 'true' or 'false', not 'yes'");
  EXPECT_EQ(error_of("CREATE TABLE t (x INT) WITH (materialized = 'true');"),
            "line 1, column 30: expected a property name as a string ('materialized'), found 'materialized'");
  EXPECT_EQ(error_of("CREATE TABLE t (x INT) WITH ('materialized' 'true');"),
            "line 1, column 45: expected '=', found 'true'");
  EXPECT_EQ(error_of("CREATE TABLE t (x INT) WITH ('a' = 'b', 'a' = 'c');"),
            "line 1, column 41: property 'a' is given twice");
  EXPECT_EQ(error_of("CREATE TABLE t (x INT) WITH ('a' = 'b'"),
            "line 1, column 39: expected ',' or ')', found end of input");
}

}  // namespace
}  // namespace freshet::sql
