// The wasm facade's side of WITH properties and ad-hoc queries: the program
// description's materialized tables, properties, connectors and warnings;
// a materialized table's snapshot; Engine::query's columns and ordered rows.
#include <gtest/gtest.h>

#include <string>

#include "engine.h"

namespace freshet::wasm {
namespace {

constexpr const char* kSql = R"sql(
CREATE TABLE t (id BIGINT NOT NULL, name VARCHAR) WITH ('materialized' = 'true', 'colour' = 'blue');
CREATE TABLE u (x INT);
CREATE MATERIALIZED VIEW v WITH ('connectors' = '[{"transport": {"name": "http_output"}}]') AS SELECT id FROM t;
)sql";

TEST(WasmEngineQuery, DescriptionCarriesPropertiesConnectorsAndWarnings) {
  Engine engine;
  ASSERT_EQ(engine.open(kSql).code, "");
  EXPECT_EQ(engine.describe_program().text,
            R"({"tables":[{"name":"t","columns":[{"name":"id","type":"BIGINT","nullable":false},)"
            R"({"name":"name","type":"VARCHAR","nullable":true}],"primaryKey":[],"materialized":true,)"
            R"("properties":{"materialized":"true","colour":"blue"},"connectors":[],"lateness":[]},)"
            R"({"name":"u","columns":[{"name":"x","type":"INTEGER","nullable":true}],"primaryKey":[],)"
            R"("materialized":false,"properties":{},"connectors":[],"lateness":[]}],)"
            R"("views":[{"name":"v","columns":[{"name":"id","type":"BIGINT","nullable":false}],"materialized":true,)"
            R"("properties":{"connectors":"[{\"transport\": {\"name\": \"http_output\"}}]"},)"
            R"("connectors":[{"transport": {"name": "http_output"}}],"indexes":[]}],)"
            R"("systemViews":[{"name":"error_view","columns":[{"name":"table_or_view_name","type":"VARCHAR","nullable":false},)"
            R"({"name":"message","type":"VARCHAR","nullable":false},{"name":"metadata","type":"VARCHAR","nullable":false}],)"
            R"("materialized":true,"properties":{},"connectors":[],"indexes":[]}],"readsNow":false,)"
            R"("warnings":[{"message":"unknown property 'colour' of table 't' is ignored","line":2,"column":82}]})");
}

TEST(WasmEngineQuery, MaterializedTableSnapshotAndQuery) {
  Engine engine;
  ASSERT_EQ(engine.open(kSql).code, "");
  engine.ingest("t", R"([{"id":2,"name":"b"},{"id":1,"name":"a"},{"id":9007199254740993,"name":"z"}])", "json", "raw",
                true);
  EXPECT_EQ(engine.step(), 0);
  EXPECT_EQ(engine.snapshot("u").code, "NOT_MATERIALIZED");
  EXPECT_EQ(engine.snapshot("t").text.substr(0, 21), R"([{"id":1,"name":"a"},)");
  Reply answer = engine.query("SELECT name, id FROM t ORDER BY id DESC");
  ASSERT_EQ(answer.code, "") << answer.message;
  // A 16-digit integer: the text is marked (trailing space) for values.js.
  EXPECT_EQ(answer.text, R"({"columns":[{"name":"name","type":"VARCHAR","nullable":true},)"
                         R"({"name":"id","type":"BIGINT","nullable":false}],)"
                         R"("rows":[{"name":"z","id":9007199254740993},{"name":"b","id":2},{"name":"a","id":1}]} )");
  Reply refused = engine.query("SELECT * FROM u");
  EXPECT_EQ(refused.code, "NOT_MATERIALIZED");
  EXPECT_EQ(engine.query("SELECT FROM t").code, "SQL_ERROR");
}

}  // namespace
}  // namespace freshet::wasm
