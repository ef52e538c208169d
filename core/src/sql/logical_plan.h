// The logical plan: what the binder makes of a query, with every name
// resolved and every expression typed, before the planner turns it into
// circuit operators. Each node's rows have the columns of `schema`;
// expressions refer to the columns of the node's input by position.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "freshet/operators/aggregate.h"
#include "freshet/operators/window.h"
#include "freshet/sql/expression.h"
#include "freshet/types/sort_key.h"
#include "freshet/types/time_window.h"

namespace freshet::sql {

struct LogicalPlan;
using PlanPtr = std::unique_ptr<LogicalPlan>;

struct LogicalPlan {
  enum class Kind : uint8_t {
    kScan,       //!< a table or view, by name
    kFilter,     //!< inputs[0] where predicate
    kProject,    //!< expressions over inputs[0]
    kJoin,       //!< inputs[0] join inputs[1]; rows are the left columns then the right ones
    kAggregate,  //!< group keys then aggregates, over inputs[0] (see below)
    kDistinct,   //!< inputs[0], each row once
    kUnionAll,   //!< inputs[0] + inputs[1]
    kExcept,     //!< distinct rows of inputs[0] that are not in inputs[1]
    kTopK,       //!< the first `limit` rows of inputs[0] in `order` order
    kTimeWindow,     //!< inputs[0]'s rows, each once per window holding it, with window_start and window_end
    kWindow,     //!< inputs[0]'s columns, then one per window function (`window`), per `partition_by`
    kExceptAll,     //!< inputs[0]'s rows, each max(0, m0 - m1) times
    kIntersect,     //!< distinct rows in both inputs
    kIntersectAll,  //!< rows in both inputs, each min(m0, m1) times
    kValues,        //!< constant rows (`rows`), no input: VALUES, and the one row SELECT without FROM reads
    kExpand,     //!< inputs[0]'s rows once per grouping set (`grouping_sets`, see below)
  };

  Kind kind;
  SchemaPtr schema;
  std::vector<PlanPtr> inputs;

  std::string source;                    //!< kScan: table or view name
  ExprPtr predicate;                     //!< kFilter
  std::vector<ExprPtr> expressions;      //!< kProject
  // kJoin: equi-join keys (left_keys[i] over the left input equals
  // right_keys[i] over the right input; NULL keys match nothing) and a
  // residual condition over the joined row; a cross join has neither.
  JoinType join_type = JoinType::kInner;
  std::vector<ExprPtr> left_keys, right_keys;
  ExprPtr residual;
  //! kJoin: the columns of each input the join keeps, in order (its rows are
  //! these left ones then these right ones): all of them from the binder,
  //! fewer after prune_columns.
  std::vector<size_t> left_columns, right_columns;
  // kAggregate: the input's first `group_count` columns are the group key;
  // aggregates read further input columns. `global` aggregates (no GROUP
  // BY) produce one row even over no input.
  size_t group_count = 0;
  std::vector<AggregateSpec> aggregates;
  bool global = false;
  std::vector<SortColumn> order;         //!< kTopK
  uint64_t limit = 0;                    //!< kTopK; UINT64_MAX when there is none (OFFSET alone)
  uint64_t offset = 0;                   //!< kTopK: positions skipped before the `limit` kept ones
  //! kValues: one list of constant expressions per row (no column references).
  std::vector<std::vector<ExprPtr>> rows;
  //! kTimeWindow: TUMBLE (slide == size) or HOP windows of a TIMESTAMP column,
  //! in microseconds.
  struct TimeWindow {
    size_t time_column = 0;
    TimeWindows windows;
  } time_window;
  //! kWindow: the partition key (expressions over inputs[0]) and the
  //! window's order, functions and rank limit (columns of inputs[0]).
  std::vector<ExprPtr> partition_by;
  WindowOptions window;
  //! kExpand (GROUPING SETS, ROLLUP, CUBE): each input row once per set. The
  //! input's first `group_count` columns are the group keys; row number s
  //! keeps the keys grouping_sets[s] lists and has NULL in the others, then
  //! s itself (an INTEGER column), then the input's remaining columns.
  std::vector<std::vector<size_t>> grouping_sets;
};

}  // namespace freshet::sql
