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
  Stream plan_aggregate(Stream input, LogicalPlan& aggregate);
  //! Indexes a Z-set by key expressions (none: the empty key); the value is the whole row.
  Stream index_by(Stream input, std::vector<ExprPtr> keys);

  Circuit& circuit_;
  StreamLookup lookup_;
};

}  // namespace freshet::sql
