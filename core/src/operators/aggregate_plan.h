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
  //! MIN/MAX/COUNT DISTINCT: one column of input_type; their traces hold such rows.
  SchemaPtr value_schema;
  //! MIN: ascending, MAX: descending, so the answer is a group's first entry.
  std::vector<SortColumn> order;

  bool keeps_trace() const {
    return spec.kind == AggregateKind::kMin || spec.kind == AggregateKind::kMax ||
           spec.kind == AggregateKind::kCountDistinct;
  }
  bool ordered() const { return spec.kind == AggregateKind::kMin || spec.kind == AggregateKind::kMax; }
};

//! Plans validated specs over an input whose value rows have `value_schema`;
//! results start at output column `first_output_column`.
std::vector<AggregatePlan> make_plans(const Schema& value_schema, const std::vector<AggregateSpec>& aggregates,
                                      size_t first_output_column);

}  // namespace freshet::aggregate_detail
