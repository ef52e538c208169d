// The work of a GROUP BY aggregate apart from where its input comes from:
// entries (group key, input row, weight) are folded in, in any order and
// unconsolidated (every aggregate is a sum over them, or keeps a trace built
// by a consolidating builder), and a step ends by emitting the changes of
// the touched groups' rows. The aggregate operator feeds it a batch; the
// fused join-aggregate feeds it joined rows as the join makes them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "aggregate_plan.h"
#include "aggregate_state.h"
#include "freshet/common/byte_io.h"
#include "freshet/common/status.h"
#include "freshet/zset/batch_builder.h"

namespace freshet::aggregate_detail {

//! Where a column of the input rows is when they are never built (see
//! Aggregation::fold_split): column `column` of the row `part` (0 or 1).
struct SplitColumn {
  uint8_t part = 0;
  uint32_t column = 0;
};

class Aggregation {
 public:
  //! Groups are rows of `key_schema`, folded rows of `value_schema`; output
  //! rows (group key columns, then one per aggregate) of `output_schema`.
  Aggregation(SchemaPtr key_schema, SchemaPtr value_schema, SchemaPtr output_schema, std::vector<AggregatePlan> plans);

  //! What a result out of its type's range does (aggregate.h); none: the step fails.
  void set_error_handler(AggregateErrorHandler on_error) { on_error_ = std::move(on_error); }
  //! EmptyInput::kDefaultRow (aggregate.h): the one group (no key columns)
  //! is emitted from the first step on, as the aggregates of nothing while
  //! it has no rows, and is kept (with its emitted row) while empty.
  void set_empty_input(EmptyInput empty_input);
  //! The group of `key`, created if new and marked as touched this step.
  GroupMap::value_type& group(RowRef key);
  //! Folds one input row of weight `weight` into `group`.
  Status fold(GroupMap::value_type& group, RowRef value, Weight weight);
  //! Folds one input row that was never built: its column c is
  //! split_columns[c] of `parts` (set_split_columns()). The same as fold() of
  //! that row, without writing it.
  Status fold_split(GroupMap::value_type& group, const RowReader* const parts[2], Weight weight);
  //! fold_split() of the rows of a run: part `other_part` of each is
  //! `other`, the other part rows.value(r) (a row of `schema`), of weight
  //! rows.weight(r) * other_weight, for r in [begin, end) in order.
  Status fold_split_run(GroupMap::value_type& group, const RowReader& other, uint8_t other_part, const Batch& rows,
                        const Schema& schema, size_t begin, size_t end, Weight other_weight);
  //! Where fold_split() reads each column of the input rows (one per column).
  void set_split_columns(std::vector<SplitColumn> columns);
  //! Ends a step: the output's changes for every touched group. On an error
  //! nothing is emitted and the groups stay touched (see aggregate.h).
  Status emit(BatchPtr* output);

  size_t state_bytes() const { return state_.memory_bytes(); }
  //! Groups, plus the entries of the value traces (MIN/MAX, DISTINCT).
  size_t state_rows() const;
  //! "COUNT, SUM by (k)".
  std::string describe() const;
  // Groups (key, count, accumulators, last output), then the value traces
  // (one per aggregate: empty for one reading another's), then, when some
  // aggregate reads another's trace, which do (see save_state()).
  // Between steps no group is pending.
  void save_state(ByteWriter& out) const;
  void restore_state(ByteReader& in);
  const AggregateWork& work() const { return state_.work; }

  //! Drops the group of `key`, if any, without emitting anything: its output
  //! row stays where it was sent. For groups no future input can reach
  //! (see GroupEviction). Only between steps (no group is pending then).
  void forget(const std::string& key);
  //! The rows last emitted, as a consolidated Z-set: the integral of the
  //! output (while no group is forgotten).
  BatchPtr emitted_rows() const;
  //! The number of group key columns when the output rows start with them,
  //! of the same types (a row of those columns is then a group's key,
  //! byte for byte), else 0.
  size_t output_key_columns() const;
  //! The row last emitted for the group `key`, if any (bytes valid until
  //! the group changes).
  std::optional<RowRef> emitted_row(RowRef key) const;
  //! Calls `visit(key bytes)` for every group.
  template <typename Visit>
  void for_each_group(Visit&& visit) const {
    for (const auto& entry : state_.groups) visit(entry.first);
  }

 private:
  //! How fold_row() takes a row into an aggregate: the commonest kinds
  //! inline (a load and an add each, no error possible), the others by
  //! fold_value() or into their traces.
  enum class FoldPath : uint8_t { kNothing, kCount, kFloatSum, kGeneral };
  static FoldPath fold_path(const AggregatePlan& plan);
  //! One aggregate's part of folding a row: how, and where the inline paths
  //! find its argument (in a whole row: part 0, the aggregate's column).
  struct FoldStep {
    FoldPath path;
    SplitColumn argument;
  };

  void fold_run_inline(GroupMap::value_type& group, const RowReader& other, uint8_t other_part, const Batch& rows,
                       const Schema& schema, size_t begin, size_t end, Weight other_weight);
  template <typename Row>
  Status fold_row(GroupMap::value_type& group, const Row& row, const FoldStep* steps, Weight weight);
  template <typename Row>
  Status fold_one(size_t a, RowRef key, const Row& row, Weight weight, Accumulator& accumulator);
  Status update_value_traces();
  Status distinct_crossings(size_t a, const Batch& changes);
  Status build_row(const GroupMap::value_type& group);
  //! The aggregates of nothing: COUNT 0, the others NULL.
  void build_empty_input_row();
  //! What a step did to a group's MIN/MAX, when told without reading the trace.
  struct ExtremeChange {
    enum Kind { kUnchanged, kToBestChange, kNeedsSeek } kind;
    RowRef best_change;  //!< kToBestChange: the new extreme's entry
  };
  ExtremeChange extreme_change(size_t a, const GroupMap::value_type& group);
  void write_extreme(size_t a, const GroupMap::value_type& group);
  Status write_recomputed(size_t a, RowRef group_key);
  void commit(GroupMap::value_type& group, std::optional<std::string>& new_row);
  void restore_shared_traces(ByteReader& in);
  //! After aggregate `a` of `group_key` failed with `error`: OK with a NULL
  //! written when the handler takes it, else the error.
  Status null_on_error(size_t a, RowRef group_key, Status error);

  const SchemaPtr key_schema_, value_schema_, output_schema_;
  const std::vector<AggregatePlan> plans_;
  std::vector<FoldStep> whole_steps_, split_steps_;  // per aggregate: fold()'s and fold_split()'s
  bool all_inline_ = false;                          // no split step is kGeneral
  AggregateState state_;
  AggregateErrorHandler on_error_;
  // kDefaultRow: the key of the one group (a row of no columns); nullopt: kNoRow.
  std::optional<std::string> default_row_group_;
  std::vector<SplitColumn> split_columns_;  // fold_split()'s
  // The group group() returned last: joined rows often come in runs of one group.
  GroupMap::value_type* last_group_ = nullptr;
  // Scratch, empty between steps.
  std::vector<BatchBuilder> value_changes_;  // per aggregate: this step's changes of its value trace
  std::vector<RowBuilder> value_rows_;       // per aggregate: one-column rows of its values
  // Per trace owner: this step's consolidated changes of its trace, from
  // update_value_traces() to the end of emit() (null: none).
  std::vector<BatchPtr> step_changes_;
  // Whether every group's emitted row follows the traces as they were
  // before this step's changes: false from a failed emit() (its changes
  // entered the traces, its rows were not emitted) to the next that succeeds.
  bool outputs_follow_traces_ = true;
  std::string sort_entry_;
  RowBuilder output_row_;
  std::vector<std::optional<std::string>> new_rows_;
  BatchBuilder changes_;
};

}  // namespace freshet::aggregate_detail
