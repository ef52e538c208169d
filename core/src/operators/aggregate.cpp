#include "freshet/operators/aggregate.h"

#include "aggregate_plan.h"
#include "aggregation.h"
#include "freshet/common/assert.h"
#include "freshet/operators/held_output.h"
#include "freshet/operators/lateness_filter.h"
#include "group_eviction.h"

namespace freshet {
namespace {

using aggregate_detail::Aggregation;

class AggregateOperator : public Operator {
 public:
  AggregateOperator(const StreamSlot* input, StreamSlot* output, std::vector<aggregate_detail::AggregatePlan> plans,
                    std::optional<GroupEvictionSpec> eviction, AggregateErrorHandler on_error, EmptyInput empty_input)
      : input_(input),
        output_(output),
        aggregation_(input->key_schema, input->value_schema, output->key_schema, std::move(plans)) {
    if (eviction) eviction_.emplace(input->key_schema, *eviction);
    aggregation_.set_error_handler(std::move(on_error));
    aggregation_.set_empty_input(empty_input);
  }
  const char* name() const override { return "aggregate"; }
  size_t state_bytes() const override {
    return aggregation_.state_bytes() + (eviction_ ? eviction_->memory_bytes() : 0);
  }
  size_t state_rows() const override { return aggregation_.state_rows(); }
  std::string describe() const override { return aggregation_.describe(); }
  void save_state(ByteWriter& out) const override { aggregation_.save_state(out); }
  void restore_state(ByteReader& in) override {
    aggregation_.restore_state(in);
    if (eviction_) eviction_->rebuild(aggregation_);
  }
  const AggregateWork& work() const { return aggregation_.work(); }
  // An aggregate that forgets closed groups (LATENESS) no longer holds
  // their rows, which stay in its output's integral: a view keeps its own,
  // and bootstrapping cannot read it.
  bool holds_output() const override { return !eviction_; }
  BatchPtr output_integral() const override { return eviction_ ? nullptr : aggregation_.emitted_rows(); }
  size_t held_key_columns() const override { return eviction_ ? 0 : aggregation_.output_key_columns(); }
  std::optional<RowRef> held_row(RowRef key) const override { return aggregation_.emitted_row(key); }

  Status evaluate() override {
    output_->batch = Batch::empty_batch();
    const Batch& batch = *input_->batch;
    for (size_t k = 0; k < batch.key_count(); ++k) {
      auto& group = aggregation_.group(batch.key(k));
      if (eviction_) eviction_->touched(batch.key(k));
      for (size_t v = batch.values_begin(k); v < batch.values_end(k); ++v) {
        FRESHET_RETURN_IF_ERROR(aggregation_.fold(group, batch.value(v), batch.weight(v)));
      }
    }
    FRESHET_RETURN_IF_ERROR(aggregation_.emit(&output_->batch));
    if (eviction_) eviction_->evict(aggregation_);
    return Status::OK();
  }

 private:
  const StreamSlot* input_;
  StreamSlot* output_;
  Aggregation aggregation_;
  std::optional<aggregate_detail::GroupEviction> eviction_;
};

}  // namespace

Stream aggregate(Stream input, std::vector<AggregateSpec> aggregates, const AggregateWork** work,
                 std::optional<GroupEvictionSpec> eviction, AggregateErrorHandler on_error, EmptyInput empty_input) {
  FRESHET_ASSERT(validate_aggregates(input.value_schema(), aggregates).ok());
  FRESHET_ASSERT(empty_input == EmptyInput::kNoRow || (input.key_schema().size() == 0 && !eviction));
  for (const AggregateSpec& spec : aggregates) {
    // Only accumulators are forgotten: MIN/MAX, DISTINCT and the recomputed aggregates keep traces.
    FRESHET_ASSERT(!eviction || is_accumulated_aggregate(spec, spec.kind == AggregateKind::kCountStar
                                                                   ? SqlType::bigint()
                                                                   : input.value_schema().type(spec.column)));
  }
  std::vector<Column> columns = input.key_schema().columns();
  for (const AggregateSpec& spec : aggregates) columns.push_back({spec.name, spec.result_type});
  Circuit& circuit = *input.circuit();
  Stream output = circuit.add_stream(make_schema(std::move(columns)), empty_schema());
  auto plans = aggregate_detail::make_plans(input.value_schema(), aggregates, input.key_schema().size());
  AggregateOperator* op = circuit.add_operator(
      std::make_unique<AggregateOperator>(&circuit.slot(input), &circuit.slot(output), std::move(plans), eviction,
                                          std::move(on_error), empty_input),
      {input}, output);
  if (work) *work = &op->work();
  return output;
}

}  // namespace freshet
