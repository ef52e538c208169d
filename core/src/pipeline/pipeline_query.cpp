// Pipeline::query: an ad-hoc query over the current contents of the
// materialized views and tables, in a circuit of its own (sql/adhoc_query.h)
// that reads their traces' snapshots; the pipeline's own state is untouched.
#include <chrono>

#include "freshet/pipeline/materialized_view.h"
#include "freshet/pipeline/pipeline.h"
#include "freshet/sql/adhoc_query.h"

namespace freshet {

Result<QueryResult> Pipeline::query(std::string_view sql) const {
  if (!failure_.ok()) return failure_;
  auto lookup = [this](const std::string& name) -> Result<SchemaPtr> {
    const MaterializedView* view = find_view(name);
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
  if (!compiled.ok()) return compiled.status();
  sql::AdhocQuery& query = **compiled;
  for (const sql::AdhocQuery::Source& source : query.sources) {
    BatchPtr rows = find_view(source.name)->snapshot();
    for (size_t k = 0; k < rows->key_count(); ++k)
      source.input->push_row(rows->key(k), rows->weight(rows->values_begin(k)));
  }
  if (query.clock) {
    // NOW() is the last step's time, as the views saw it; before any step, the system clock.
    std::optional<int64_t> now = clock();
    query.clock->set_time(
        now ? *now
            : std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
                  .count());
  }
  Status stepped = query.circuit->step();
  if (!stepped.ok()) return Status(stepped.code(), "query: " + stepped.message());
  return QueryResult{query.schema, query.sorted_rows()};
}

}  // namespace freshet
