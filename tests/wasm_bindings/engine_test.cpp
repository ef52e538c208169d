// The wasm facade (wasm-bindings/cpp/engine.h), natively: every call answers
// with a Reply, or for the per-change calls a number or text with the failure
// in last_error() (never throws), rows cross as JSON text, connectors' writes
// wait in the outbox until JS acknowledges them, snapshots are one chunk.
#include "engine.h"
#include "js_chunk.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace freshet::wasm {
namespace {

constexpr const char* kSql = R"sql(
CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, customer BIGINT, amount DOUBLE);
CREATE MATERIALIZED VIEW totals AS SELECT customer, SUM(amount) AS total FROM orders GROUP BY customer;
CREATE INDEX totals_idx ON totals(customer);
CREATE VIEW big AS SELECT * FROM orders WHERE amount > 100;
)sql";

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(WasmEngine, CallsBeforeOpenOrAfterAFailedOpenAreClosed) {
  Engine engine;
  EXPECT_EQ(engine.step(), -1);
  EXPECT_EQ(engine.last_error().code, "CLOSED");
  EXPECT_EQ(engine.snapshot("totals").code, "CLOSED");
  Reply opened = engine.open("CREATE TABLE t (x INT,");
  EXPECT_EQ(opened.code, "SQL_ERROR");
  EXPECT_TRUE(contains(opened.message, "line 1, column")) << opened.message;
  EXPECT_EQ(engine.ingest("t", "[]", "json", "insert_delete", true), -1);
  EXPECT_EQ(engine.last_error().code, "CLOSED");
  EXPECT_FALSE(engine.needs_step());
}

TEST(WasmEngine, CountsLiveEngines) {
  int before = Engine::live_engines();
  {
    Engine a, b;
    EXPECT_EQ(Engine::live_engines(), before + 2);
  }
  EXPECT_EQ(Engine::live_engines(), before);
}

TEST(WasmEngine, IngestStepSnapshotLookup) {
  Engine engine;
  ASSERT_EQ(engine.open(kSql).code, "");
  Reply described = engine.describe_program();
  // The core's description (tests/core/sql/program_description_test.cpp), unchanged.
  EXPECT_TRUE(contains(described.text, R"("primaryKey":["id"])")) << described.text;
  EXPECT_TRUE(contains(described.text, R"("materialized":true,"properties":{},"connectors":[],"indexes":[{"name":"totals_idx")")) << described.text;
  EXPECT_TRUE(contains(described.text, R"("materialized":false,"properties":{},"connectors":[],"indexes":[]}])")) << described.text;
  EXPECT_TRUE(contains(described.text, R"("systemViews":[{"name":"error_view",)")) << described.text;

  double token = engine.ingest("orders", R"([{"id":1,"customer":7,"amount":2.5},{"id":2,"customer":7,"amount":1}])",
                               "json", "raw", true);
  EXPECT_EQ(token, 0);
  EXPECT_EQ(engine.last_error().code, "");
  EXPECT_TRUE(engine.needs_step());
  EXPECT_EQ(engine.ingest("orders", "1,8,4\n", "csv", "insert_delete", true), 1);
  EXPECT_EQ(engine.step(), 0);
  EXPECT_EQ(engine.last_step_input_records(), 3);
  EXPECT_EQ(engine.snapshot("totals").text, R"([{"customer":7,"total":1},{"customer":8,"total":4}])");
  EXPECT_EQ(engine.lookup("totals_idx", R"({"customer":8})").text, R"([{"customer":8,"total":4}])");
  EXPECT_EQ(engine.lookup("totals_idx", R"({"customer":"x"})").code, "PARSE_ERROR");
  EXPECT_EQ(engine.completion_status(1).number, 1);
  EXPECT_EQ(engine.completion_status(2).code, "UNKNOWN_TOKEN");
  EXPECT_EQ(engine.completion_status(0.5).code, "UNKNOWN_TOKEN");
}

// What JS does through EngineFastPath: write into the input buffer, ingest it
// by table number, read chunk text and step results from the exchange.
TEST(WasmEngine, TextInPlaceIngestsFromTheInputBufferAndLeavesChunksInTheEngine) {
  Engine engine;
  ASSERT_EQ(engine.open(kSql).code, "");
  double* exchange = reinterpret_cast<double*>(static_cast<uintptr_t>(engine.exchange_address()));
  double id = engine.open_egress("totals", "", false, 10, "block").number;
  auto write_input = [&](const std::string& text) {
    char* buffer = reinterpret_cast<char*>(static_cast<uintptr_t>(engine.input_buffer(text.size())));
    text.copy(buffer, text.size());
    // What follows the text is padding: whatever is there must not be read.
    std::string("]]} {\"id\":9").copy(buffer + text.size(), 12);
    return static_cast<double>(text.size());
  };
  EXPECT_EQ(engine.ingest_input(0, write_input(R"([{"id":1,"customer":7,"amount":2.5},{"id":2,"customer":8,"amount":1}])"), Engine::kJsonRaw, true), 0);
  EXPECT_EQ(engine.ingest_input(0, write_input(R"([{"delete":{"id":2}}])"), Engine::kJsonInsertDelete, true), 1);
  EXPECT_EQ(engine.ingest_input(0, write_input("3,8,4\n"), Engine::kCsv, true), 2);
  EXPECT_EQ(engine.step(), 0);
  EXPECT_EQ(exchange[Engine::kStepInputRecords], 4);
  double bytes = engine.next_chunk_in_place(id);
  ASSERT_GT(bytes, 0);
  std::string chunk(reinterpret_cast<const char*>(static_cast<uintptr_t>(exchange[Engine::kTextAddress])),
                    static_cast<size_t>(bytes));
  EXPECT_EQ(chunk, R"({"sequenceNumber":0,"step":0,"snapshot":false,"snapshotComplete":false,)"
                   R"("inserts":[{"customer":7,"total":2.5},{"customer":8,"total":4}],"deletes":[]})");
  EXPECT_EQ(engine.next_chunk_in_place(id), 0);
  EXPECT_EQ(engine.last_error().code, "");

  EXPECT_EQ(engine.ingest_input(0, write_input(R"([{"id":5,"customer":7,"amount":"x"}])"), Engine::kJsonRaw, true), -1);
  EXPECT_EQ(engine.last_error().code, "PARSE_ERROR");
  EXPECT_TRUE(contains(engine.last_error().message, "table 'orders': record 0")) << engine.last_error().message;
  EXPECT_EQ(engine.ingest_input(1, 2, Engine::kJsonRaw, true), -1);
  EXPECT_EQ(engine.last_error().code, "INVALID_ARGUMENT");
  EXPECT_EQ(engine.ingest_input(0, 1e6, Engine::kJsonRaw, true), -1);
  EXPECT_EQ(engine.last_error().code, "INVALID_ARGUMENT");
  EXPECT_EQ(engine.close_egress(id).code, "");
  EXPECT_EQ(engine.next_chunk_in_place(id), -1);
  EXPECT_EQ(engine.last_error().code, "UNKNOWN_OUTPUT");
  EXPECT_EQ(engine.input_buffer(0), 0);  // freed
  EXPECT_FALSE(engine.needs_step());     // the failed ingests left nothing behind
}

TEST(WasmEngine, ErrorsComeBackAsCodes) {
  Engine engine;
  ASSERT_EQ(engine.open(kSql).code, "");
  auto ingest_error = [&](const char* table, const char* data, const char* format, const char* update_format) {
    EXPECT_EQ(engine.ingest(table, data, format, update_format, true), -1);
    return engine.last_error();
  };
  EXPECT_EQ(ingest_error("nope", "[]", "json", "raw").code, "UNKNOWN_TABLE");
  EXPECT_EQ(ingest_error("orders", "[]", "xml", "raw").code, "INVALID_ARGUMENT");
  EXPECT_EQ(ingest_error("orders", "[]", "json", "upsert").code, "INVALID_ARGUMENT");
  Reply bad = ingest_error("orders", R"([{"insert":{"id":1}},{"insert":{"id":"two"}}])", "json", "insert_delete");
  EXPECT_EQ(bad.code, "PARSE_ERROR");
  EXPECT_TRUE(contains(bad.message, "record 1")) << bad.message;
  EXPECT_EQ(engine.snapshot("big").code, "NOT_MATERIALIZED");
  EXPECT_EQ(engine.snapshot("nope").code, "UNKNOWN_VIEW");
  EXPECT_EQ(engine.lookup("nope", "{}").code, "UNKNOWN_INDEX");
  EXPECT_EQ(engine.open_egress("totals", "", false, 10, "wait").code, "INVALID_ARGUMENT");
  EXPECT_EQ(engine.add_output("o", "totals", "", false, false, "{}").code, "");
  EXPECT_EQ(engine.add_output("o", "totals", "", false, false, "{}").code, "DUPLICATE_OUTPUT");
  EXPECT_EQ(engine.reset_output("o").code, "NOT_RESETTABLE");
  EXPECT_EQ(engine.remove_output("p").code, "UNKNOWN_OUTPUT");
}

// One connector write as take_writes_in_place() lays it out (js_outbox.h):
// the connector's number, its format, and its payload (JSON text, or a row
// chunk's words as bytes).
struct Write {
  double connector;
  double format;
  std::string payload;
};

std::vector<Write> take_writes(Engine& engine) {
  const double* exchange = reinterpret_cast<const double*>(static_cast<uintptr_t>(engine.exchange_address()));
  double bytes = engine.take_writes_in_place();
  std::vector<Write> writes;
  if (bytes == 0) return writes;
  const double* words = reinterpret_cast<const double*>(static_cast<uintptr_t>(exchange[Engine::kTextAddress]));
  size_t at = 1;
  for (double n = 0; n < words[0]; ++n) {
    size_t size = static_cast<size_t>(words[at + 2]);
    writes.push_back({words[at], words[at + 1], std::string(reinterpret_cast<const char*>(words + at + 3), size)});
    at += 3 + (size + 7) / 8;
  }
  EXPECT_EQ(at * 8, bytes);
  return writes;
}

TEST(WasmEngine, ConnectorWritesWaitForAcknowledgement) {
  Engine engine;
  ASSERT_EQ(engine.open(kSql).code, "");
  ASSERT_EQ(engine.add_output("dash", "totals", "totals_idx", true, true, R"({"type":"MapSink"})", 7).code, "");
  EXPECT_TRUE(take_writes(engine).empty());
  double token = engine.ingest("orders", R"([{"id":1,"customer":7,"amount":2}])", "json", "raw", true);
  engine.step();
  std::vector<Write> writes = take_writes(engine);
  ASSERT_EQ(writes.size(), 1u);
  EXPECT_EQ(writes[0].connector, 7);
  EXPECT_EQ(writes[0].format, JsOutbox::kJsonText);  // through an index: JSON
  EXPECT_EQ(writes[0].payload, R"({"sequenceNumber":0,"step":0,"snapshot":true,"snapshotComplete":true,)"
                               R"("upserts":[{"key":{"customer":7},"row":{"customer":7,"total":2}}],"deletes":[]})");
  EXPECT_EQ(engine.completion_status(token).number, 0);  // written, not yet acknowledged
  engine.ingest("orders", R"([{"id":1,"customer":7,"amount":3}])", "json", "raw", true);
  engine.step();
  EXPECT_TRUE(take_writes(engine).empty());  // one write in flight per connector
  EXPECT_EQ(engine.acknowledge_connector(7, 0), 1);  // and the core wrote the next
  EXPECT_EQ(engine.completion_status(token).number, 1);
  writes = take_writes(engine);
  ASSERT_EQ(writes.size(), 1u);
  EXPECT_EQ(writes[0].payload, R"({"sequenceNumber":1,"step":1,"snapshot":false,)"
                               R"("snapshotComplete":false,"upserts":[{"key":{"customer":7},"row":{"customer":7,)"
                               R"("total":3}}],"deletes":[]})");
  EXPECT_EQ(engine.acknowledge_connector(7, 0), -1);
  EXPECT_EQ(engine.last_error().code, "INVALID_ARGUMENT");
  EXPECT_EQ(engine.acknowledge_connector(8, 1), -1);
  EXPECT_EQ(engine.last_error().code, "UNKNOWN_OUTPUT");
  EXPECT_EQ(engine.acknowledge("dash", 1).code, "");  // by name, as Embind's acknowledge()
  // A reset drops what was queued and replays a snapshot at the next step.
  EXPECT_EQ(engine.reset_output("dash").code, "");
  EXPECT_TRUE(engine.needs_step());
  engine.step();
  writes = take_writes(engine);
  ASSERT_EQ(writes.size(), 1u);
  EXPECT_TRUE(contains(writes[0].payload, R"("sequenceNumber":2,"step":2,"snapshot":true,"snapshotComplete":true)"));
  EXPECT_TRUE(contains(engine.stats(), R"("resets":1)"));
}

TEST(WasmEngine, OneStepsWritesToManyConnectorsComeInOneBuffer) {
  Engine engine;
  ASSERT_EQ(engine.open(kSql).code, "");
  ASSERT_EQ(engine.add_output("rows", "totals", "", false, false, "{}", 1).code, "");
  ASSERT_EQ(engine.add_output("keyed", "totals", "totals_idx", false, false, "{}", 2).code, "");
  engine.ingest("orders", R"([{"id":1,"customer":7,"amount":2.5}])", "json", "raw", true);
  engine.step();
  std::vector<Write> writes = take_writes(engine);
  ASSERT_EQ(writes.size(), 2u);
  Write rows = writes[0].connector == 1 ? writes[0] : writes[1];
  Write keyed = writes[0].connector == 1 ? writes[1] : writes[0];
  EXPECT_EQ(keyed.connector, 2);
  EXPECT_EQ(keyed.format, JsOutbox::kJsonText);
  // Without an index, a row chunk (js_row_chunk.h): header, column kinds, the row inserted.
  EXPECT_EQ(rows.format, JsOutbox::kRowChunk);
  ASSERT_EQ(rows.payload.size(), (6 + 2 + 3) * 8u);
  const double* words = reinterpret_cast<const double*>(rows.payload.data());
  EXPECT_EQ(words[3], 1);  // rows inserted
  EXPECT_EQ(words[4], 0);  // rows deleted
  EXPECT_EQ(words[9], 7);  // customer
  EXPECT_EQ(words[10], 2.5);  // total
  // A step that changes no view writes nothing; a removed connector's number is unknown.
  engine.step();
  EXPECT_TRUE(take_writes(engine).empty());
  EXPECT_EQ(engine.remove_output("rows").code, "");
  EXPECT_EQ(engine.acknowledge_connector(1, 0), -1);
  EXPECT_EQ(engine.last_error().code, "UNKNOWN_OUTPUT");
  EXPECT_EQ(engine.acknowledge_connector(2, 0), 0);
}

TEST(WasmEngine, EgressSnapshotIsOneChunkHoweverLarge) {
  Engine engine;
  ASSERT_EQ(engine.open(kSql).code, "");
  std::string rows = "[";
  for (int i = 0; i < 25000; ++i) {
    rows += (i ? "," : "") + std::string(R"({"id":)") + std::to_string(i) + R"(,"customer":)" + std::to_string(i) +
            R"(,"amount":1})";
  }
  ASSERT_EQ(engine.ingest("orders", rows + "]", "json", "raw", true), 0);
  engine.step();
  Reply id = engine.open_egress("totals", "", true, 1000, "block");
  ASSERT_EQ(id.code, "");
  EXPECT_EQ(engine.next_chunk(id.number), "");  // the snapshot comes at the next step
  EXPECT_EQ(engine.last_error().code, "");
  engine.step();
  std::string chunk = engine.next_chunk(id.number);
  EXPECT_TRUE(contains(chunk, R"({"sequenceNumber":0,"step":1,"snapshot":true,"snapshotComplete":true,"inserts":[)"))
      << chunk.substr(0, 100);
  EXPECT_TRUE(chunk.ends_with(R"(,"total":1}],"deletes":[]})"));
  size_t rows_in_chunk = 0;
  for (size_t at = chunk.find("\"customer\":"); at != std::string::npos; at = chunk.find("\"customer\":", at + 1)) {
    ++rows_in_chunk;
  }
  EXPECT_EQ(rows_in_chunk, 25000u);
  EXPECT_EQ(engine.next_chunk(id.number), "");
  EXPECT_EQ(engine.close_egress(id.number).code, "");
  EXPECT_EQ(engine.next_chunk(id.number), "");
  EXPECT_EQ(engine.last_error().code, "UNKNOWN_OUTPUT");
}

TEST(WasmEngine, EgressChunksSplitInsertsFromDeletesOrUpsertsFromKeyDeletes) {
  Engine engine;
  ASSERT_EQ(engine.open(kSql).code, "");
  double rows = engine.open_egress("totals", "", false, 10, "block").number;
  double keyed = engine.open_egress("totals", "totals_idx", false, 10, "block").number;
  engine.ingest("orders", R"([{"id":1,"customer":7,"amount":2},{"id":2,"customer":8,"amount":1}])", "json", "raw", true);
  engine.step();
  engine.next_chunk(rows);
  engine.next_chunk(keyed);
  engine.ingest("orders", R"([{"delete":{"id":2}},{"insert":{"id":1,"customer":7,"amount":5}}])", "json",
                "insert_delete", true);
  engine.step();
  EXPECT_EQ(engine.next_chunk(rows), R"({"sequenceNumber":1,"step":1,"snapshot":false,"snapshotComplete":false,)"
                                     R"("inserts":[{"customer":7,"total":5}],)"
                                     R"("deletes":[{"customer":7,"total":2},{"customer":8,"total":1}]})");
  EXPECT_EQ(engine.next_chunk(keyed), R"({"sequenceNumber":1,"step":1,"snapshot":false,"snapshotComplete":false,)"
                                      R"("upserts":[{"key":{"customer":7},"row":{"customer":7,"total":5}}],)"
                                      R"("deletes":[{"key":{"customer":8}}]})");
}

TEST(WasmEngine, TextJsonParseWouldReadInexactlyIsMarkedWithATrailingSpace) {
  auto marked = [](std::string json) { return mark_inexact_for_js(json).ends_with(' '); };
  EXPECT_FALSE(marked(R"([{"id":900719925474099,"x":0.30000000000000004,"y":-123456789012345}])"));
  EXPECT_TRUE(marked(R"([{"id":9223372036854775807}])"));
  EXPECT_TRUE(marked(R"([{"id":-1234567890123456}])"));
  EXPECT_TRUE(marked(R"([{"d":12345678901234567.5}])"));  // a DECIMAL's integer part
  EXPECT_FALSE(marked(R"([{"x":1.1234567890123456789}])"));
  EXPECT_TRUE(marked(R"([{"x":"NaN"}])"));
  EXPECT_TRUE(marked(R"([{"x":"-Infinity"}])"));
  EXPECT_FALSE(marked(R"([{"s":"NaNa"}])"));
  EXPECT_TRUE(marked(R"([{"s":"a","x":"Infinity"}])"));
  EXPECT_FALSE(marked(R"([{"s":"-Inf","t":"Infinite","u":"-1"}])"));
  EXPECT_FALSE(marked(R"(["Infinity)"));  // cut short: no closing quote, not the word

  Engine engine;
  ASSERT_EQ(engine.open("CREATE TABLE t (id BIGINT NOT NULL); CREATE MATERIALIZED VIEW v AS SELECT * FROM t;").code, "");
  engine.ingest("t", R"([{"id":9223372036854775807},{"id":1}])", "json", "raw", true);
  engine.step();
  EXPECT_EQ(engine.snapshot("v").text, R"([{"id":1},{"id":9223372036854775807}] )");
}

}  // namespace
}  // namespace freshet::wasm
