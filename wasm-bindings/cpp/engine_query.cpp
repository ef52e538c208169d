// Engine::query: Pipeline::query's answer as JSON for JS, with the columns
// JS needs to finish the values (BIGINT beyond 2^53, DECIMAL) of its rows.
#include "engine.h"
#include "freshet/format/json_output.h"
#include "freshet/sql/program_description.h"
#include "js_chunk.h"

namespace freshet::wasm {
namespace {

void set_limit(double from_js, uint64_t* limit) {
  if (from_js >= 1) *limit = static_cast<uint64_t>(from_js);
}

}  // namespace

Reply Engine::query(const std::string& sql, double max_rows, double max_bytes, double max_work_rows,
                    double max_work_bytes) const {
  if (!pipeline_) return closed_reply();
  QueryLimits limits;
  set_limit(max_rows, &limits.max_result_rows);
  set_limit(max_bytes, &limits.max_result_bytes);
  set_limit(max_work_rows, &limits.max_work_rows);
  set_limit(max_work_bytes, &limits.max_work_bytes);
  Result<QueryResult> result = pipeline_->query(sql, limits);
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
