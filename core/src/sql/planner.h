// Planner: turns a logical plan into circuit operators. Expressions run in
// map and filter functions with an Evaluator each; an evaluation error
// (division by zero, overflow) fails the step through Circuit::report_error.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "freshet/circuit/circuit.h"
#include "logical_plan.h"

namespace freshet::sql {

class Planner {
 public:
  //! Finds the stream of a table or view by name.
  using StreamLookup = std::function<std::optional<Stream>(const std::string& name)>;

  Planner(Circuit& circuit, StreamLookup lookup) : circuit_(circuit), lookup_(std::move(lookup)) {}

  //! The Z-set stream of a plan's rows.
  Result<Stream> plan(LogicalPlan& plan);

 private:
  Stream plan_filter(Stream input, ExprPtr predicate);
  Stream plan_project(Stream input, const SchemaPtr& schema, std::vector<ExprPtr> expressions);
  Stream plan_join(Stream left, Stream right, LogicalPlan& node);
  //! The aggregate of `row` (expressions over `input`, the first ones the group key).
  Stream plan_aggregate(Stream input, const SchemaPtr& row_schema, std::vector<ExprPtr> row, LogicalPlan& aggregate);
  //! Indexes a Z-set by key expressions (none: the empty key); the value is
  //! the whole row, or only `value_columns` of it. Rows with a NULL in their
  //! key are dropped when asked.
  Stream index_by(Stream input, std::vector<ExprPtr> keys, bool drop_null_keys = false,
                  std::optional<std::vector<size_t>> value_columns = std::nullopt);

  Circuit& circuit_;
  StreamLookup lookup_;
};

}  // namespace freshet::sql
