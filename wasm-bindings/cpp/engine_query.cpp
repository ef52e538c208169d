// Engine::query: Pipeline::query's answer as JSON for JS, with the columns
// JS needs to finish the values (BIGINT beyond 2^53, DECIMAL) of its rows.
#include "engine.h"
#include "freshet/format/json_output.h"
#include "freshet/sql/program_description.h"
#include "js_chunk.h"

namespace freshet::wasm {

Reply Engine::query(const std::string& sql) const {
  if (!pipeline_) return closed_reply();
  Result<QueryResult> result = pipeline_->query(sql);
  if (!result.ok()) return Reply::error(result.status());
  format::JsonRowEncoder encoder(*result->schema);
  std::string json = "{\"columns\":";
  sql::append_columns(*result->schema, &json);
  json += ",\"rows\":[";
  for (size_t i = 0; i < result->rows.size(); ++i) {
    if (i) json += ',';
    encoder.append_row(RowRef(result->rows[i]), &json);
  }
  json += "]}";
  return Reply::ok(std::move(mark_inexact_for_js(json)));
}

}  // namespace freshet::wasm
