// RuntimeErrors: where the runtime errors of one operator's expressions go.
// In 'fail' mode (runtime_error_mode.h) the first one fails the step
// (Circuit::report_error). In 'null' mode the failing node has yielded NULL
// already (Evaluator::fail) and evaluation went on under standard SQL's
// NULL rules; each expression that met an error is logged once for that
// row: counted for the view and listed in error_view (circuit/error_log.h).
#pragma once

#include <string>

#include "freshet/circuit/circuit.h"
#include "freshet/operators/aggregate.h"
#include "freshet/sql/expression.h"
#include "freshet/sql/runtime_error_mode.h"

namespace freshet::sql {

struct RuntimeErrors {
  Circuit* circuit = nullptr;
  RuntimeErrorMode mode = RuntimeErrorMode::kFail;
  std::string view;  //!< the view whose plan the operator belongs to

  //! After `expr` was evaluated over `row` into a value (`null` or not): in
  //! 'null' mode, logs the evaluator's error and clears it, unless the value
  //! is NULL where the type says NOT NULL (then it is left to fail the step).
  void after(Evaluator& evaluator, const Expr& expr, const RowReader& row, bool null) const;
  //! Reports what is left (a 'fail' mode error) to the circuit; true when there was one.
  bool report(Evaluator& evaluator) const;
  //! In 'null' mode, what makes an aggregate's result that does not fit its
  //! type NULL for that group, logged like an expression's error; in
  //! 'fail' mode none (the step fails).
  AggregateErrorHandler aggregate_handler() const;
};

//! The error view's metadata for a runtime error turned into NULL: a JSON
//! object with the step, the error's code, the expression (`expression`, as
//! Evaluator::describe renders it: over column names) and (when under
//! 1 KiB) the operator's input row.
std::string runtime_error_metadata(uint64_t step, const Status& error, const std::string& expression,
                                   const RowReader& row);
//! The same for an aggregate's result out of range: the aggregate (its
//! function and output column) instead of the expression, the group's key
//! instead of the row.
std::string aggregate_error_metadata(uint64_t step, const Status& error, const AggregateSpec& spec,
                                     const RowReader& group);

}  // namespace freshet::sql
