// The immutable plan of one aggregate: its spec plus what the operator derives
// from the input schema once (the column's type, how SUM accumulates, the
// single-column schema and sort order of the values MIN/MAX/COUNT DISTINCT keep).
#pragma once

#include <vector>

#include "freshet/operators/aggregate.h"
#include "freshet/types/sort_key.h"

namespace freshet::aggregate_detail {

struct AggregatePlan {
  AggregateSpec spec;
  SqlType input_type;        //!< the aggregated column's type (unused by COUNT(*))
  bool floating = false;     //!< SUM/AVG accumulate in a double (REAL/DOUBLE input)
  uint8_t input_scale = 0;   //!< scale of exact sums: the DECIMAL input's scale, else 0
  size_t output_column = 0;  //!< position of the result in the output row
  //! Aggregates that keep a trace: one column of input_type, the rows it holds;
  //! ARG_MIN/ARG_MAX: two columns, (compared, value).
  SchemaPtr value_schema;
  //! MIN: ascending, MAX: descending, so the answer is a group's first entry
  //! (in its own trace: a plan reading another's reads it in that one's order).
  std::vector<SortColumn> order;
  //! The aggregate whose trace this one reads: itself, or, for a MIN or MAX
  //! of a column an earlier MIN or MAX of the aggregate also takes, that one
  //! (both traces would hold the same values). It then folds nothing itself.
  size_t trace_owner = 0;
  //! The answer is the group's last live entry of the owner's trace (MAX
  //! read from MIN's, MIN from MAX's), not its first.
  bool reads_last = false;
  //! BIT_AND, BIT_OR, VAR/STDDEV of REAL/DOUBLE, DISTINCT over REAL/DOUBLE:
  //! a touched group's result is folded again from its values in the trace.
  bool recomputed = false;
  //! DISTINCT inside an accumulated aggregate: values crossing zero in the
  //! trace are folded in with weight +1 / -1.
  bool folds_distinct = false;

  bool ordered() const {
    return spec.kind == AggregateKind::kMin || spec.kind == AggregateKind::kMax ||
           spec.kind == AggregateKind::kArgMin || spec.kind == AggregateKind::kArgMax;
  }
  //! VAR_*/STDDEV_*: the accumulator's sums of squares are used (and saved).
  bool has_squares() const {
    return spec.kind == AggregateKind::kVarPop || spec.kind == AggregateKind::kVarSamp ||
           spec.kind == AggregateKind::kStddevPop || spec.kind == AggregateKind::kStddevSamp;
  }
  bool arg() const { return spec.kind == AggregateKind::kArgMin || spec.kind == AggregateKind::kArgMax; }
  //! MIN or MAX (not ARG_*): the value is the whole entry, so an output
  //! row's value encodes back to the entry it was read from.
  bool extreme_of_value() const { return spec.kind == AggregateKind::kMin || spec.kind == AggregateKind::kMax; }
  bool keeps_trace() const {
    return ordered() || recomputed || folds_distinct || spec.kind == AggregateKind::kCountDistinct;
  }
  //! The input column whose NULL makes a row not count (ARG_*: the compared one).
  size_t null_column() const { return arg() ? spec.compared_column : spec.column; }
};

//! Plans validated specs over an input whose value rows have `value_schema`;
//! results start at output column `first_output_column`. A MIN and a MAX
//! of one column share one trace (trace_owner).
std::vector<AggregatePlan> make_plans(const Schema& value_schema, const std::vector<AggregateSpec>& aggregates,
                                      size_t first_output_column);

}  // namespace freshet::aggregate_detail
