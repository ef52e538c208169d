#include "freshet/operators/join_aggregate.h"

#include "aggregate_plan.h"
#include "aggregation.h"
#include "freshet/common/assert.h"
#include "freshet/operators/held_output.h"
#include "join_core.h"

namespace freshet {
namespace {

using aggregate_detail::Aggregation;
using aggregate_detail::GroupMap;
using aggregate_detail::SplitColumn;

//! How each joined pair becomes a group and an input row: by a mapper that
//! writes both, or by picking columns of the two sides (join_aggregate.h).
struct PairGrouping {
  JoinMapper mapper;                  //!< the mapper form's; none when picked
  std::vector<JoinedColumn> columns;  //!< the picked form's input row columns
};

class JoinAggregateOperator : public Operator {
 public:
  JoinAggregateOperator(const Circuit& circuit, Arrangement left, Arrangement right, StreamSlot* output,
                        SchemaPtr group_schema, SchemaPtr row_schema, PairGrouping grouping,
                        std::vector<aggregate_detail::AggregatePlan> plans, AggregateErrorHandler on_error,
                        EmptyInput empty_input)
      : output_(output),
        picked_(!grouping.mapper),
        join_(picked_ ? JoinCore(circuit, left, right)
                      : JoinCore(circuit, left, right, *group_schema, *row_schema, std::move(grouping.mapper))),
        group_key_(*group_schema),
        aggregation_(group_schema, row_schema, output->key_schema, std::move(plans)) {
    aggregation_.set_error_handler(std::move(on_error));
    aggregation_.set_empty_input(empty_input);
    if (picked_) pick(grouping.columns, group_schema->size());
  }
  const char* name() const override { return "join_aggregate"; }

  Status evaluate() override {
    output_->batch = Batch::empty_batch();
    FRESHET_RETURN_IF_ERROR(picked_ ? fold_picked() : fold_mapped());
    return aggregation_.emit(&output_->batch);
  }

  bool holds_output() const override { return true; }
  BatchPtr output_integral() const override { return aggregation_.emitted_rows(); }
  size_t held_key_columns() const override { return aggregation_.output_key_columns(); }
  std::optional<RowRef> held_row(RowRef key) const override { return aggregation_.emitted_row(key); }
  // The aggregate's state; the join's sides are the arrangements' (arrange.h).
  size_t state_bytes() const override { return aggregation_.state_bytes(); }
  void save_state(ByteWriter& out) const override { aggregation_.save_state(out); }
  void restore_state(ByteReader& in) override { aggregation_.restore_state(in); }
  size_t state_rows() const override { return aggregation_.state_rows(); }
  std::string describe() const override { return join_.describe() + ", " + aggregation_.describe(); }

 private:
  // Which side's row decides a pair's group, in the picked form.
  enum KeySide : uint8_t { kLeft = 0, kRight = 1, kBoth, kNeither };

  void pick(const std::vector<JoinedColumn>& columns, size_t group_count) {
    std::vector<SplitColumn> split;
    bool left = false, right = false;
    for (size_t c = 0; c < columns.size(); ++c) {
      const uint8_t part = columns[c].from_left ? kLeft : kRight;
      split.push_back({part, static_cast<uint32_t>(columns[c].column)});
      if (c < group_count) (columns[c].from_left ? left : right) = true;
    }
    key_side_ = left && right ? kBoth : left ? kLeft : right ? kRight : kNeither;
    group_columns_.assign(split.begin(), split.begin() + static_cast<std::ptrdiff_t>(group_count));
    aggregation_.set_split_columns(std::move(split));
  }

  Status fold_mapped() {
    Status folded = Status::OK();
    join_.step([this, &folded](RowRef group, RowRef row, Weight weight) {
      if (folded.ok()) folded = aggregation_.fold(aggregation_.group(group), row, weight);
    });
    return folded;
  }

  // No row is built: the aggregates read the sides. Pairs of one row of the
  // key's side come in runs (the walk pairs each delta row with every match
  // of the other side in turn), whose group is found once; a run of the
  // join (JoinCore::Run) whose one other row decides the group is folded in
  // one call. The group found last stays valid through the step: groups are
  // only erased by emit() and between steps, and the sides' rows live as
  // long as the step.
  Status fold_picked() {
    Status folded = Status::OK();
    GroupMap::value_type* group = nullptr;
    RowRef group_row;  // the key side's row `group` is of
    auto group_of = [&](const RowReader* const parts[2]) -> GroupMap::value_type& {
      if (group && key_side_ != kBoth && (key_side_ == kNeither || same_row(parts[key_side_]->row(), group_row))) {
        return *group;
      }
      for (size_t c = 0; c < group_columns_.size(); ++c) {
        group_key_.copy_field(c, *parts[group_columns_[c].part], group_columns_[c].column);
      }
      group = &aggregation_.group(group_key_.finish());
      if (key_side_ <= kRight) group_row = parts[key_side_]->row();
      return *group;
    };
    auto fold_pair = [&](const RowReader& left, const RowReader& right, Weight weight) {
      if (!folded.ok()) return;
      const RowReader* const parts[2] = {&left, &right};
      Status status = aggregation_.fold_split(group_of(parts), parts, weight);
      if (!status.ok()) folded = std::move(status);
    };
    auto fold_run = [&](const JoinCore::Run& run) {
      const uint8_t other_part = run.delta_is_left ? kRight : kLeft;
      if (key_side_ != other_part && key_side_ != kNeither) {
        for (size_t d = run.begin; d < run.end; ++d) {  // each delta row may be of another group
          const RowReader row(run.delta_schema, run.delta.value(d));
          const Weight weight = run.delta.weight(d) * run.other_weight;
          run.delta_is_left ? fold_pair(row, run.other, weight) : fold_pair(run.other, row, weight);
        }
        return;
      }
      if (!folded.ok()) return;
      // The group key reads the other row alone (or nothing).
      const RowReader* const parts[2] = {&run.other, &run.other};
      Status status = aggregation_.fold_split_run(group_of(parts), run.other, other_part, run.delta, run.delta_schema,
                                                  run.begin, run.end, run.other_weight);
      if (!status.ok()) folded = std::move(status);
    };
    join_.step_runs([&](const RowReader&, const RowReader& left, const RowReader& right,
                        Weight weight) { fold_pair(left, right, weight); },
                    fold_run);
    return folded;
  }

  //! The same row of a batch (not merely equal bytes).
  static bool same_row(RowRef a, RowRef b) { return a.data == b.data && a.size == b.size; }

  StreamSlot* output_;
  const bool picked_;
  JoinCore join_;
  KeySide key_side_ = kBoth;
  std::vector<SplitColumn> group_columns_;  // the picked form's group key columns
  RowBuilder group_key_;
  Aggregation aggregation_;
};

Stream add_join_aggregate(Stream left, Stream right, SchemaPtr group_schema, SchemaPtr row_schema,
                          PairGrouping grouping, const std::vector<AggregateSpec>& aggregates,
                          AggregateErrorHandler on_error, EmptyInput empty_input) {
  FRESHET_ASSERT(validate_aggregates(*row_schema, aggregates).ok());
  FRESHET_ASSERT(empty_input == EmptyInput::kNoRow || group_schema->size() == 0);
  std::vector<Column> columns = group_schema->columns();
  for (const AggregateSpec& spec : aggregates) columns.push_back({spec.name, spec.result_type});
  Circuit& circuit = *left.circuit();
  Arrangement left_arranged = arrange(left), right_arranged = arrange(right);
  Stream output = circuit.add_stream(make_schema(std::move(columns)), empty_schema());
  auto plans = aggregate_detail::make_plans(*row_schema, aggregates, group_schema->size());
  circuit.add_operator(
      std::make_unique<JoinAggregateOperator>(circuit, left_arranged, right_arranged, &circuit.slot(output),
                                              std::move(group_schema), std::move(row_schema), std::move(grouping),
                                              std::move(plans), std::move(on_error), empty_input),
      {left_arranged.stream, right_arranged.stream}, output);
  return output;
}

}  // namespace

Stream join_aggregate(Stream left, Stream right, SchemaPtr group_schema, SchemaPtr row_schema, JoinMapper mapper,
                      std::vector<AggregateSpec> aggregates, AggregateErrorHandler on_error, EmptyInput empty_input) {
  FRESHET_ASSERT(mapper);
  return add_join_aggregate(left, right, std::move(group_schema), std::move(row_schema), {std::move(mapper), {}},
                            aggregates, std::move(on_error), empty_input);
}

Stream join_aggregate(Stream left, Stream right, SchemaPtr group_schema, SchemaPtr row_schema,
                      std::vector<JoinedColumn> columns, std::vector<AggregateSpec> aggregates,
                      AggregateErrorHandler on_error, EmptyInput empty_input) {
  FRESHET_ASSERT(columns.size() == row_schema->size() && group_schema->size() <= columns.size());
  const Schema& left_values = left.value_schema();
  const Schema& right_values = right.value_schema();
  for (size_t c = 0; c < columns.size(); ++c) {
    const Schema& side = columns[c].from_left ? left_values : right_values;
    FRESHET_ASSERT(columns[c].column < side.size() && side.type(columns[c].column).id == row_schema->type(c).id);
    FRESHET_ASSERT(c >= group_schema->size() || group_schema->type(c).id == row_schema->type(c).id);
  }
  return add_join_aggregate(left, right, std::move(group_schema), std::move(row_schema), {nullptr, std::move(columns)},
                            aggregates, std::move(on_error), empty_input);
}

}  // namespace freshet
