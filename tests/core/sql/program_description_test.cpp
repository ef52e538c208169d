// describe_program (freshet/sql/program_description.h): one program's whole
// description to the byte, the LATENESS literals, and every program of the
// SQL scenario files (tests/sql/*.test) checked against what its statements
// declare and what the compiler made of them.
#include "freshet/sql/program_description.h"

#include <simdjson.h>

#include <gtest/gtest.h>

#include <random>

#include "freshet/sql/parser.h"
#include "support/scenario_files.h"

namespace freshet::sql {
namespace {

std::string describe(const std::string& sql) {
  Result<std::unique_ptr<CompiledProgram>> compiled = compile_program(sql);
  EXPECT_TRUE(compiled.ok()) << compiled.status().to_string();
  return compiled.ok() ? describe_program(**compiled) : "";
}

TEST(ProgramDescription, WholeProgram) {
  std::string json = describe(R"sql(
    CREATE TABLE orders (id BIGINT PRIMARY KEY, region VARCHAR(20) NOT NULL, "Note" VARCHAR,
                         amount DECIMAL(10, 2), ts TIMESTAMP NOT NULL LATENESS INTERVAL '90' MINUTE);
    CREATE TABLE ticks (n INT LATENESS 5);
    CREATE MATERIALIZED VIEW totals (region, total) AS SELECT region, SUM(amount) FROM orders GROUP BY region;
    CREATE VIEW recent AS SELECT id, ts - INTERVAL '1' HOUR AS shifted, (NOW() - ts) MINUTE AS age FROM orders;
    CREATE LOCAL VIEW plain AS SELECT n * 2.5e0 AS x FROM ticks;
    CREATE INDEX recent_by_id ON recent(id);
    CREATE INDEX recent_by_time ON recent(shifted, id);
  )sql");
  EXPECT_EQ(json,
            R"j({"tables":[)j"
            R"j({"name":"orders","columns":[{"name":"id","type":"BIGINT","nullable":false},)j"
            R"j({"name":"region","type":"VARCHAR(20)","nullable":false,"length":20},)j"
            R"j({"name":"Note","type":"VARCHAR","nullable":true},)j"
            R"j({"name":"amount","type":"DECIMAL(10, 2)","nullable":true,"precision":10,"scale":2},)j"
            R"j({"name":"ts","type":"TIMESTAMP","nullable":false}],)j"
            R"j("primaryKey":["id"],"materialized":false,"properties":{},"connectors":[],"lateness":[{"column":"ts","lateness":"INTERVAL '90' MINUTE"}]},)j"
            R"j({"name":"ticks","columns":[{"name":"n","type":"INTEGER","nullable":true}],)j"
            R"j("primaryKey":[],"materialized":false,"properties":{},"connectors":[],"lateness":[{"column":"n","lateness":"5"}]}],)j"
            R"j("views":[)j"
            R"j({"name":"totals","columns":[{"name":"region","type":"VARCHAR(20)","nullable":false,"length":20},)j"
            R"j({"name":"total","type":"DECIMAL(38, 2)","nullable":true,"precision":38,"scale":2}],)j"
            R"j("materialized":true,"properties":{},"connectors":[],"indexes":[]},)j"
            R"j({"name":"recent","columns":[{"name":"id","type":"BIGINT","nullable":false},)j"
            R"j({"name":"shifted","type":"TIMESTAMP","nullable":false},)j"
            R"j({"name":"age","type":"INTERVAL MINUTE","nullable":false}],)j"
            R"j("materialized":true,"properties":{},"connectors":[],"indexes":[{"name":"recent_by_id","view":"recent","key":["id"]},)j"
            R"j({"name":"recent_by_time","view":"recent","key":["shifted","id"]}]},)j"
            R"j({"name":"plain","columns":[{"name":"x","type":"DOUBLE","nullable":true}],"materialized":false,)j"
            R"j("properties":{},"connectors":[],"indexes":[]}],)j"
            // The system view (pipeline/error_view.h).
            R"j("systemViews":[{"name":"error_view","columns":[{"name":"table_or_view_name","type":"VARCHAR","nullable":false},)j"
            R"j({"name":"message","type":"VARCHAR","nullable":false},{"name":"metadata","type":"VARCHAR","nullable":false}],)j"
            R"j("materialized":true,"properties":{},"connectors":[],"indexes":[]}],"readsNow":true,"warnings":[]})j");
}

TEST(ProgramDescription, NamesAreEscapedAndNoClockWithoutNow) {
  std::string json = describe(R"(CREATE TABLE "a""b" (x INT); CREATE VIEW v AS SELECT x FROM "a""b";)");
  EXPECT_NE(json.find(R"("name":"a\"b")"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("readsNow":false)"), std::string::npos) << json;
}

TEST(ProgramDescription, LatenessLiterals) {
  EXPECT_EQ(lateness_literal(SqlType::timestamp(), 172'800'000'000), "INTERVAL '2' DAY");
  EXPECT_EQ(lateness_literal(SqlType::timestamp(), 3'600'000'000), "INTERVAL '1' HOUR");
  EXPECT_EQ(lateness_literal(SqlType::timestamp(), 5'400'000'000), "INTERVAL '90' MINUTE");
  EXPECT_EQ(lateness_literal(SqlType::timestamp(), 1'500'000), "INTERVAL '1.5' SECOND");
  EXPECT_EQ(lateness_literal(SqlType::timestamp(), 61'000'001), "INTERVAL '61.000001' SECOND");
  EXPECT_EQ(lateness_literal(SqlType::timestamp(), 0), "INTERVAL '0' DAY");
  EXPECT_EQ(lateness_literal(SqlType::date(), 2), "INTERVAL '2' DAY");
  EXPECT_EQ(lateness_literal(SqlType::bigint(), 60), "60");
  EXPECT_EQ(lateness_literal(SqlType::smallint(), 0), "0");
}

//! The lateness the compiler gives column `c` of `type` declared LATENESS `literal`.
int64_t bound_lateness(const std::string& type, const std::string& literal) {
  Result<std::unique_ptr<CompiledProgram>> compiled =
      compile_program("CREATE TABLE t (c " + type + " LATENESS " + literal + ");");
  EXPECT_TRUE(compiled.ok()) << type << " LATENESS " << literal << ": " << compiled.status().to_string();
  return compiled.ok() ? (*compiled)->tables[0].watermark->lateness() : -1;
}

TEST(ProgramDescription, LatenessLiteralsBindBack) {
  std::mt19937_64 random(18);
  for (int i = 0; i < 300; ++i) {
    // Whole units of each size, and odd microseconds.
    static constexpr int64_t kSizes[] = {86'400'000'000, 3'600'000'000, 60'000'000, 1'000'000, 1000, 1};
    int64_t micros = static_cast<int64_t>(random() % 1000) * kSizes[i % 6] + static_cast<int64_t>(random() % 3);
    EXPECT_EQ(bound_lateness("TIMESTAMP", lateness_literal(SqlType::timestamp(), micros)), micros);
    int64_t days = static_cast<int64_t>(random() % 400);
    EXPECT_EQ(bound_lateness("DATE", lateness_literal(SqlType::date(), days)), days);
    int64_t number = static_cast<int64_t>(random() % 100'000);
    EXPECT_EQ(bound_lateness("BIGINT", lateness_literal(SqlType::bigint(), number)), number);
  }
}

}  // namespace
}  // namespace freshet::sql
