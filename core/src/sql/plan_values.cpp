// Planner: VALUES and the one row of a SELECT without FROM. Their
// expressions are constants, so they are evaluated once, at compile time;
// the rows enter the circuit at step 0 and never change.
#include "freshet/operators/constant.h"
#include "freshet/zset/batch_builder.h"
#include "planner.h"

namespace freshet::sql {

Result<Stream> Planner::plan_values(LogicalPlan& plan) {
  const SchemaPtr no_columns = empty_schema();
  RowBuilder empty_builder(*no_columns);
  RowRef empty_row = empty_builder.finish();
  Evaluator evaluator;
  BatchBuilder rows;
  RowBuilder row_builder(*plan.schema);
  for (std::vector<ExprPtr>& row : plan.rows) {
    evaluator.start_row();
    for (size_t c = 0; c < row.size(); ++c) {
      Datum value = evaluator.evaluate(*row[c], RowReader(*no_columns, empty_row));
      Evaluator::write(value, row[c]->type, c, row_builder);
    }
    if (evaluator.failed()) {
      Status error = evaluator.take_error();
      return Status(ErrorCode::kSqlError, "VALUES: " + error.message());
    }
    rows.add_row(row_builder.finish(), 1);
  }
  return constant(circuit_, plan.schema, no_columns, rows.finish());
}

}  // namespace freshet::sql
