// Pipeline::query: an ad-hoc query over the current contents of the
// materialized views and tables, in a circuit of its own (sql/adhoc_query.h)
// that reads their traces' snapshots; the pipeline's own state is untouched.
//
// Bounded (QueryLimits): the text; the work, by a WorkMeter active while the
// relations are copied in and the circuit steps (circuit/work_meter.h); the
// answer's rows and bytes, counted on the output batch before its rows are
// repeated by their weights. Past a bound: LIMIT_EXCEEDED, nothing kept.
#include <chrono>

#include "freshet/circuit/work_meter.h"
#include "freshet/pipeline/materialized_view.h"
#include "freshet/pipeline/pipeline.h"
#include "freshet/sql/adhoc_query.h"

namespace freshet {
namespace {

Status limit_exceeded(const std::string& what, uint64_t limit) {
  return Status(ErrorCode::kLimitExceeded, "query: " + what + " (the limit is " + std::to_string(limit) +
                                               "): narrow it with WHERE, LIMIT or fewer joins");
}

//! The answer's rows (each as often as it occurs) and bytes, within the limits.
Status check_result(const Batch& rows, const QueryLimits& limits) {
  uint64_t count = 0, bytes = 0;
  for (size_t k = 0; k < rows.key_count(); ++k) {
    Weight weight = rows.weight(rows.values_begin(k));
    if (weight <= 0) continue;
    count += static_cast<uint64_t>(weight);
    bytes += static_cast<uint64_t>(weight) * rows.key(k).size;
    if (count > limits.max_result_rows) {
      return limit_exceeded("the answer has more than " + std::to_string(limits.max_result_rows) + " rows",
                            limits.max_result_rows);
    }
    if (bytes > limits.max_result_bytes) {
      return limit_exceeded("the answer has more than " + std::to_string(limits.max_result_bytes) + " bytes",
                            limits.max_result_bytes);
    }
  }
  return Status::OK();
}

Status check_work(const WorkMeter& meter) {
  if (meter.rows() > meter.max_rows()) {
    return limit_exceeded("it would build more than " + std::to_string(meter.max_rows()) + " rows on the way",
                          meter.max_rows());
  }
  return limit_exceeded("it would build more than " + std::to_string(meter.max_bytes()) + " bytes on the way",
                        meter.max_bytes());
}

}  // namespace

Result<QueryResult> Pipeline::query(std::string_view sql, const QueryLimits& limits) const {
  if (!failure_.ok()) return failure_;
  if (sql.size() > limits.max_sql_bytes) {
    return limit_exceeded("its text has " + std::to_string(sql.size()) + " bytes", limits.max_sql_bytes);
  }
  Status failed_view;  // a failed view read: its error, as snapshot() answers it
  auto lookup = [this, &failed_view](const std::string& name) -> Result<SchemaPtr> {
    const MaterializedView* view = find_view(name);
    if (view && !view->failure().ok()) return failed_view = view->failure();
    if (view && view->materialized()) return view->view().schema;
    if (view) {
      return Status(ErrorCode::kNotMaterialized, "view '" + name +
                                                     "' is not materialized, and queries read only materialized "
                                                     "views and tables: declare it CREATE MATERIALIZED VIEW");
    }
    if (program_->find_table(name)) {
      return Status(ErrorCode::kNotMaterialized, "table '" + name +
                                                     "' is not materialized, and queries read only materialized "
                                                     "views and tables: declare it WITH ('materialized' = 'true')");
    }
    return SchemaPtr();
  };
  Result<std::unique_ptr<sql::AdhocQuery>> compiled = sql::compile_adhoc_query(sql, lookup);
  if (!compiled.ok()) return failed_view.ok() ? compiled.status() : failed_view;
  sql::AdhocQuery& query = **compiled;
  WorkMeter meter(limits.max_work_rows, limits.max_work_bytes);
  ScopedWorkMeter metered(&meter);
  for (const sql::AdhocQuery::Source& source : query.sources) {
    BatchPtr rows = find_view(source.name)->snapshot();
    for (size_t k = 0; k < rows->key_count() && !meter.exceeded(); ++k)
      source.input->push_row(rows->key(k), rows->weight(rows->values_begin(k)));
  }
  if (meter.exceeded()) return check_work(meter);
  if (query.clock) {
    // NOW() is the last step's time, as the views saw it; before any step, the system clock.
    std::optional<int64_t> now = clock();
    query.clock->set_time(
        now ? *now
            : std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
                  .count());
  }
  Status stepped = query.circuit->step();
  if (stepped.ok()) stepped = query.circuit->last_step_error();  // one step: any error is the query's
  if (meter.exceeded()) return check_work(meter);
  if (!stepped.ok()) return Status(stepped.code(), "query: " + stepped.message());
  FRESHET_RETURN_IF_ERROR(check_result(*query.stream.current(), limits));
  return QueryResult{query.schema, query.sorted_rows()};
}

}  // namespace freshet
