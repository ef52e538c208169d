// Join-aggregate: GROUP BY over an inner equi-join, in one operator.
//
// The same as aggregate(join(left, right, ..., mapper), aggregates) — the
// mapper writes each joined pair as (group key, the aggregate's input row) —
// without the joined rows ever forming a batch: each joined entry is folded
// into its group as the join's walk makes it. A batch of them would be
// sorted and consolidated only for the aggregate to fold them one by one,
// and that sort was the largest cost of a bulk load into such a view.
//
//   ΔA, ΔB ──► ⋈ walk ──(group, row, weight)──► fold ──► emit ──► Δ(output)
//
// ## Invariants
// - The output equals that of the join followed by the aggregate, after
//   every step (both read the sides' arrangements, arrange.h); the one
//   difference is that a floating SUM/AVG adds a step's joined rows in the
//   walk's order and unconsolidated (a pair that cancels within a step is
//   added and taken away), which can change its rounding, as any
//   incremental float sum does.
// - On an error the arrangements still take the step's input (as for the
//   join) and the aggregate's rules for errors apply (aggregate.h).
//
// ## Rows picked from the sides
// When every column of the input row is a column of one side (GROUP BY
// c.region ... SUM(o.amount)), the second form takes those picks instead of
// a mapper, and a pair builds no rows: the aggregates read their arguments
// from the two sides' rows. And when the group key's columns all come from
// one side, the pairs of one row of that side are all in one group, found
// once for the run of them (a bulk load's pairs come in such runs: every
// order of a customer, grouped by the customer's region).
#pragma once

#include <vector>

#include "freshet/operators/aggregate.h"
#include "freshet/operators/row_functions.h"

namespace freshet {

//! GROUP BY `aggregates` of left ⋈ right, whose `mapper` writes each joined
//! pair as a group key row (`group_schema`) and an input row (`row_schema`).
//! The specs must pass validate_aggregates() against `row_schema`.
//! `on_error` and `empty_input` as in aggregate().
Stream join_aggregate(Stream left, Stream right, SchemaPtr group_schema, SchemaPtr row_schema, JoinMapper mapper,
                      std::vector<AggregateSpec> aggregates, AggregateErrorHandler on_error = nullptr,
                      EmptyInput empty_input = EmptyInput::kNoRow);

//! A column of the left or the right side's value rows.
struct JoinedColumn {
  bool from_left = true;
  size_t column = 0;
};

//! The same, where the input row's columns (`row_schema`) are `columns`, in
//! order, of the same types; its first group_schema->size() columns are the
//! group key.
Stream join_aggregate(Stream left, Stream right, SchemaPtr group_schema, SchemaPtr row_schema,
                      std::vector<JoinedColumn> columns, std::vector<AggregateSpec> aggregates,
                      AggregateErrorHandler on_error = nullptr, EmptyInput empty_input = EmptyInput::kNoRow);

}  // namespace freshet
