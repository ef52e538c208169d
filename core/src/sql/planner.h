// Planner: turns a logical plan into circuit operators. Expressions run in
// map and filter functions with an Evaluator each; an evaluation error
// (division by zero, overflow) fails the step through Circuit::report_error,
// or in 'null' mode yields NULL and is logged (runtime_errors.h).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "column_time.h"
#include "freshet/circuit/circuit.h"
#include "freshet/operators/clock.h"
#include "freshet/operators/row_functions.h"
#include "logical_plan.h"
#include "runtime_errors.h"

namespace freshet::sql {

class SharedPlans;

class Planner {
 public:
  //! Finds the stream of a table or view by name.
  using StreamLookup = std::function<std::optional<Stream>(const std::string& name)>;

  Planner(Circuit& circuit, StreamLookup lookup) : circuit_(circuit), lookup_(std::move(lookup)) {}

  //! The Z-set stream of a plan's rows (a sub-plan planned before, when
  //! sharing: plan_sharing.cpp).
  Result<Stream> plan(LogicalPlan& plan);
  //! Plans each sub-plan once across the planners that share `shared`
  //! (plan_sharing.h); without it every node is planned anew.
  void set_shared_plans(SharedPlans* shared) { shared_ = shared; }
  //! Gives the program's clock (made on first use) to plans that read NOW().
  using ClockSource = std::function<ClockOperator*()>;
  void set_clock_source(ClockSource clock) { clock_ = std::move(clock); }
  //! Tables' watermarks (LATENESS): aggregates grouped by a column tied to
  //! one forget their closed groups (column_time.h).
  void set_watermarks(WatermarkLookup watermarks) { watermarks_ = std::move(watermarks); }
  //! What a runtime error does in the operators of view `view` (runtime_errors.h).
  void set_runtime_error_mode(RuntimeErrorMode mode, std::string view) {
    runtime_errors_ = {&circuit_, mode, std::move(view)};
  }

 private:
  //! Plans one node (its inputs through plan()).
  Result<Stream> plan_node(LogicalPlan& plan);
  //! Whether another plan node reads `plan`'s stream too (so it is planned on its own).
  bool shared(const LogicalPlan& plan) const;
  // NOW() (plan_temporal.cpp): temporal filters, and a join with the
  // clock's one-row stream for every other use.
  //! A filter whose predicate reads NOW().
  Stream plan_clock_filter(Stream input, ExprPtr predicate);
  //! A projection whose expressions read NOW().
  Stream plan_clock_project(Stream input, const SchemaPtr& schema, std::vector<ExprPtr> expressions);
  //! The input's rows with the step's time appended as a last column (O(rows) per tick).
  Stream with_clock(Stream input);
  Stream plan_filter(Stream input, ExprPtr predicate);
  //! VALUES rows, evaluated once here, as a constant stream (plan_values.cpp).
  Result<Stream> plan_values(LogicalPlan& plan);
  //! Feldera's top-k rule (plan_window.cpp): a filter `rank <= k` (or `< k`,
  //! `= 1`) over a ROW_NUMBER, RANK or DENSE_RANK column gives that window a
  //! rank limit, so it keeps only the first ranks of each partition.
  static void apply_rank_limit(LogicalPlan& filter);
  Stream plan_project(Stream input, const SchemaPtr& schema, std::vector<ExprPtr> expressions);
  //! A map's output schemas and function: run as a map of its own, or by
  //! the join-aggregate on each joined row.
  struct RowMap {
    SchemaPtr key_schema, value_schema;
    RowMapper mapper;
    std::string description;  // for explain (map.h)
    std::string key;          // what it computes, canonically (plan_key.h): maps alike are shared
  };
  //! The map of `input` by `grouping` (an aggregate's grouping map).
  Stream grouped_rows(Stream input, const RowMap& grouping);
  //! `build()`'s stream, of the one operator it adds, whose input and work
  //! `what` says canonically; or the stream another user built alike, when
  //! sharing (plan_sharing.cpp).
  Stream shared_operator(std::string what, const std::function<Stream()>& build);
  //! A join node's planned inputs indexed by its keys.
  std::pair<Stream, Stream> index_join_inputs(Stream left, Stream right, LogicalPlan& node);
  //! The join of two planned inputs.
  Stream plan_join(Stream left, Stream right, LogicalPlan& node);
  //! The joined rows of indexed inputs, for every kind of join.
  Stream join_rows(Stream left_indexed, Stream right_indexed, LogicalPlan& node, const JoinMapper& concat);
  //! A LEFT, RIGHT or FULL join of indexed inputs, its residual condition
  //! deciding which matches count (plan_outer_join.cpp).
  Stream plan_outer_join(Stream left_indexed, Stream right_indexed, LogicalPlan& node, const JoinMapper& concat);
  //! An aggregate node: its input rows grouped (grouping_map), then aggregated.
  Result<Stream> plan_grouped_aggregate(LogicalPlan& plan);
  //! An aggregate over an inner join without a residual condition, in one
  //! operator (join_aggregate.h): the joined rows are grouped and folded as
  //! they are made, never built into a batch and sorted. `columns`: the
  //! joined row's columns the grouped row copies, when it only copies.
  Stream plan_join_aggregate(Stream left, Stream right, LogicalPlan& join, const RowMap& grouping,
                             const std::optional<std::vector<size_t>>& columns, LogicalPlan& aggregate);
  //! Indexes rows of `row` (expressions over the input, the first
  //! `group_count` the group key) by their group key.
  RowMap grouping_map(const Schema& input, const SchemaPtr& row_schema, std::vector<ExprPtr> row, size_t group_count);
  //! The aggregate of grouped rows; `eviction` when its groups close (LATENESS).
  Stream plan_aggregate(Stream grouped, LogicalPlan& aggregate,
                        std::optional<GroupEvictionSpec> eviction = std::nullopt);
  //! The eviction of an aggregate's closed groups, when one of its group
  //! keys (`row`, over `source`) follows a watermark and every aggregate is
  //! linear.
  std::optional<GroupEvictionSpec> closing_groups(const LogicalPlan& source, const std::vector<ExprPtr>& row,
                                                  const LogicalPlan& aggregate) const;
  //! Indexes a Z-set by key expressions (none: the empty key); the value is
  //! the whole row, or only `value_columns` of it. Rows with a NULL in their
  //! key are dropped when asked.
  Stream index_by(Stream input, std::vector<ExprPtr> keys, bool drop_null_keys = false,
                  std::optional<std::vector<size_t>> value_columns = std::nullopt);
  //! What index_by(input, keys, ...) computes, canonically: the key of its
  //! stream, and of its arrangement (plan_arrange.cpp).
  std::string index_key(Stream input, const std::vector<ExprPtr>& keys, bool drop_null_keys,
                        const std::optional<std::vector<size_t>>& value_columns) const;
  //! index_by, arranged (arrange.h): the arrangement another join made of
  //! the same stream, keys and columns, when sharing (plan_arrange.cpp).
  Stream arranged_index(Stream input, std::vector<ExprPtr> keys, bool drop_null_keys,
                        std::optional<std::vector<size_t>> value_columns);
  //! A stream of rows arranged by the whole row (for DISTINCT, EXCEPT and
  //! INTERSECT): the arrangement another of them made of it, when sharing.
  Stream arranged_rows(Stream input);

  Circuit& circuit_;
  StreamLookup lookup_;
  ClockSource clock_;
  WatermarkLookup watermarks_;
  std::string id_key_;  // the operator id scope of the node being planned (plan())
  SharedPlans* shared_ = nullptr;
  RuntimeErrors runtime_errors_{&circuit_, RuntimeErrorMode::kFail, {}};
};

}  // namespace freshet::sql
