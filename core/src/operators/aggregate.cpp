#include "freshet/operators/aggregate.h"

#include <optional>
#include <string>

#include "aggregate_accumulator.h"
#include "aggregate_plan.h"
#include "aggregate_state.h"
#include "freshet/common/assert.h"
#include "freshet/zset/batch_builder.h"
#include "freshet/zset/batch_codec.h"

namespace freshet {
namespace {

using aggregate_detail::Accumulator;
using aggregate_detail::AggregatePlan;
using aggregate_detail::AggregateState;
using aggregate_detail::GroupMap;
using aggregate_detail::GroupState;

class AggregateOperator : public Operator {
 public:
  AggregateOperator(const StreamSlot* input, StreamSlot* output, std::vector<AggregatePlan> plans)
      : input_(input), output_(output), plans_(std::move(plans)), output_row_(*output->key_schema) {
    state_.value_traces.resize(plans_.size());
    value_changes_.resize(plans_.size());
    for (const AggregatePlan& plan : plans_) {
      value_rows_.emplace_back(plan.value_schema ? *plan.value_schema : *empty_schema());
    }
  }
  const char* name() const override { return "aggregate"; }
  size_t state_bytes() const override { return state_.memory_bytes(); }

  // Groups (key, count, accumulators, last output), then the value traces.
  // Between steps no group is pending.
  void save_state(ByteWriter& out) const override {
    out.varint(state_.groups.size());
    for (const auto& [key, group] : state_.groups) {
      out.bytes(key);
      out.i64(group.count);
      for (const Accumulator& accumulator : group.accumulators) {
        out.i64(accumulator.non_null);
        out.i128(accumulator.exact_sum);
        out.f64(accumulator.float_sum);
        out.i64(accumulator.distinct);
      }
      out.boolean(group.emitted);
      if (group.emitted) out.bytes(group.output);
    }
    for (const Trace& trace : state_.value_traces) write_trace(out, trace);
  }

  void restore_state(ByteReader& in) override {
    size_t count = in.count(10 + 40 * plans_.size());
    for (size_t g = 0; g < count && in.ok(); ++g) {
      RowRef key(in.bytes());
      if (in.ok() && !row_fits_schema(*input_->key_schema, key)) in.fail("group " + std::to_string(g) + " does not fit its schema");
      if (!in.ok()) break;
      GroupMap::value_type& group = state_.find_or_add(key, plans_.size());
      state_.group_bytes -= aggregate_detail::group_footprint(group);
      group.second.count = in.i64();
      for (Accumulator& accumulator : group.second.accumulators) {
        accumulator.non_null = in.i64();
        accumulator.exact_sum = in.i128();
        accumulator.float_sum = in.f64();
        accumulator.distinct = in.i64();
      }
      group.second.emitted = in.boolean();
      if (group.second.emitted) group.second.output = std::string(in.bytes());
      state_.group_bytes += aggregate_detail::group_footprint(group);
      if (in.ok() && group.second.emitted && !row_fits_schema(*output_->key_schema, RowRef(group.second.output))) {
        in.fail("the output of group " + std::to_string(g) + " does not fit its schema");
      }
    }
    for (size_t a = 0; a < plans_.size() && in.ok(); ++a) {
      const AggregatePlan& plan = plans_[a];
      RowCheck values = any_row();
      if (plan.ordered()) {
        values = sorted_rows_of(plan.value_schema);
      } else if (plan.keeps_trace()) {
        values = rows_of(plan.value_schema);
      }
      read_trace(in, rows_of(input_->key_schema), values, &state_.value_traces[a]);
    }
  }
  const AggregateWork& work() const { return state_.work; }

  Status evaluate() override {
    output_->batch = Batch::empty_batch();
    FRESHET_RETURN_IF_ERROR(fold_batch(*input_->batch));
    update_value_traces();
    return emit();
  }

 private:
  // Folds every changed row into its group: accumulators directly, MIN/MAX and
  // COUNT DISTINCT values into this step's changes of their traces.
  Status fold_batch(const Batch& batch) {
    for (size_t k = 0; k < batch.key_count(); ++k) {
      RowRef key = batch.key(k);
      GroupMap::value_type& group = state_.find_or_add(key, plans_.size());
      state_.mark_pending(group);
      for (size_t v = batch.values_begin(k); v < batch.values_end(k); ++v) {
        RowReader row(*input_->value_schema, batch.value(v));
        Weight weight = batch.weight(v);
        group.second.count += weight;
        ++state_.work.rows_folded;
        for (size_t a = 0; a < plans_.size(); ++a) {
          FRESHET_RETURN_IF_ERROR(fold(a, key, row, weight, group.second.accumulators[a]));
        }
      }
    }
    return Status::OK();
  }

  Status fold(size_t a, RowRef key, const RowReader& row, Weight weight, Accumulator& accumulator) {
    const AggregatePlan& plan = plans_[a];
    if (plan.spec.kind == AggregateKind::kCountStar || row.is_null(plan.spec.column)) return Status::OK();
    if (!plan.keeps_trace()) return aggregate_detail::fold_value(plan, row, weight, accumulator);
    value_rows_[a].copy_field(0, row, plan.spec.column);
    RowRef value = value_rows_[a].finish();
    if (plan.ordered()) {
      encode_sorted_row(RowReader(*plan.value_schema, value), plan.order, &sort_entry_);
      value = RowRef(sort_entry_);
    }
    value_changes_[a].add(key, value, weight);
    return Status::OK();
  }

  void update_value_traces() {
    for (size_t a = 0; a < plans_.size(); ++a) {
      if (value_changes_[a].empty()) continue;
      BatchPtr changes = value_changes_[a].finish();
      if (plans_[a].spec.kind == AggregateKind::kCountDistinct) count_distinct_crossings(a, *changes);
      state_.value_traces[a].insert(std::move(changes));
    }
  }

  // A value counts for COUNT DISTINCT while its total weight is positive:
  // adjust the group's count where this step's change crosses zero.
  void count_distinct_crossings(size_t a, const Batch& changes) {
    const Trace& trace = state_.value_traces[a];
    for (size_t k = 0; k < changes.key_count(); ++k) {
      RowRef key = changes.key(k);
      Accumulator& accumulator = state_.groups.find(key.to_bytes())->second.accumulators[a];
      for (size_t v = changes.values_begin(k); v < changes.values_end(k); ++v) {
        Weight before = trace.weight_of(key, changes.value(v));
        Weight after = before + changes.weight(v);
        accumulator.distinct += static_cast<int64_t>(after > 0) - static_cast<int64_t>(before > 0);
        ++state_.work.trace_seeks;
      }
    }
  }

  // Recomputes the row of every pending group, then emits the differences.
  // Nothing is committed unless every row could be computed, so after an
  // error the groups stay pending and what was emitted stays the truth.
  Status emit() {
    new_rows_.resize(state_.pending.size());
    for (size_t i = 0; i < state_.pending.size(); ++i) {
      const GroupMap::value_type& group = *state_.pending[i];
      ++state_.work.groups_evaluated;
      new_rows_[i].reset();
      if (group.second.count <= 0) continue;
      Status status = build_row(group);
      RowRef row = output_row_.finish();
      if (!status.ok()) return status;
      new_rows_[i] = row.to_bytes();
    }
    for (size_t i = 0; i < state_.pending.size(); ++i) commit(*state_.pending[i], new_rows_[i]);
    state_.pending.clear();
    output_->batch = changes_.finish();
    return Status::OK();
  }

  Status build_row(const GroupMap::value_type& group) {
    RowReader key(*input_->key_schema, RowRef(group.first));
    for (size_t c = 0; c < key.schema().size(); ++c) output_row_.copy_field(c, key, c);
    for (size_t a = 0; a < plans_.size(); ++a) {
      if (plans_[a].ordered()) {
        write_extreme(a, RowRef(group.first));
      } else {
        FRESHET_RETURN_IF_ERROR(aggregate_detail::write_linear_result(plans_[a], group.second.count,
                                                                      group.second.accumulators[a], output_row_));
      }
    }
    return Status::OK();
  }

  // MIN/MAX: the group's first live entry in the aggregate's sort order.
  void write_extreme(size_t a, RowRef group_key) {
    const AggregatePlan& plan = plans_[a];
    Trace::KeyCursor first = state_.value_traces[a].seek(group_key);
    ++state_.work.trace_seeks;
    if (!first.valid()) return output_row_.set_null(plan.output_column);
    RowReader value(*plan.value_schema, sorted_row_payload(first.value()));
    output_row_.copy_field(plan.output_column, value, 0);
  }

  void commit(GroupMap::value_type& group, std::optional<std::string>& new_row) {
    GroupState& state = group.second;
    state_.group_bytes -= aggregate_detail::group_footprint(group);
    bool unchanged = state.emitted && new_row && state.output == *new_row;
    if (!unchanged) {
      if (state.emitted) changes_.add_row(RowRef(state.output), -1);
      if (new_row) changes_.add_row(RowRef(*new_row), 1);
      state.emitted = new_row.has_value();
      state.output = new_row ? std::move(*new_row) : std::string();
    }
    state.pending = false;
    bool empty = state.count == 0;
    for (Accumulator& accumulator : state.accumulators) {
      // A float sum of values that all left is exactly 0, not the rounding residue.
      if (accumulator.non_null == 0) accumulator.float_sum = 0;
      empty = empty && accumulator.zero();
    }
    state_.group_bytes += aggregate_detail::group_footprint(group);
    if (empty) state_.erase(group);
  }

  const StreamSlot* input_;
  StreamSlot* output_;
  const std::vector<AggregatePlan> plans_;
  AggregateState state_;
  // Scratch, empty between steps.
  std::vector<BatchBuilder> value_changes_;  // per aggregate: this step's changes of its value trace
  std::vector<RowBuilder> value_rows_;       // per aggregate: one-column rows of its values
  std::string sort_entry_;
  RowBuilder output_row_;
  std::vector<std::optional<std::string>> new_rows_;
  BatchBuilder changes_;
};

}  // namespace

Stream aggregate(Stream input, std::vector<AggregateSpec> aggregates, const AggregateWork** work) {
  FRESHET_ASSERT(validate_aggregates(input.value_schema(), aggregates).ok());
  std::vector<Column> columns = input.key_schema().columns();
  for (const AggregateSpec& spec : aggregates) columns.push_back({spec.name, spec.result_type});
  Circuit& circuit = *input.circuit();
  Stream output = circuit.add_stream(make_schema(std::move(columns)), empty_schema());
  auto plans = aggregate_detail::make_plans(input.value_schema(), aggregates, input.key_schema().size());
  AggregateOperator* op = circuit.add_operator(
      std::make_unique<AggregateOperator>(&circuit.slot(input), &circuit.slot(output), std::move(plans)));
  if (work) *work = &op->work();
  return output;
}

}  // namespace freshet
