#include "freshet/operators/aggregate.h"

#include "aggregate_plan.h"
#include "aggregation.h"
#include "freshet/common/assert.h"

namespace freshet {
namespace {

using aggregate_detail::Aggregation;

class AggregateOperator : public Operator {
 public:
  AggregateOperator(const StreamSlot* input, StreamSlot* output, std::vector<aggregate_detail::AggregatePlan> plans)
      : input_(input),
        output_(output),
        aggregation_(input->key_schema, input->value_schema, output->key_schema, std::move(plans)) {}
  const char* name() const override { return "aggregate"; }
  size_t state_bytes() const override { return aggregation_.state_bytes(); }
  void save_state(ByteWriter& out) const override { aggregation_.save_state(out); }
  void restore_state(ByteReader& in) override { aggregation_.restore_state(in); }
  const AggregateWork& work() const { return aggregation_.work(); }

  Status evaluate() override {
    output_->batch = Batch::empty_batch();
    const Batch& batch = *input_->batch;
    for (size_t k = 0; k < batch.key_count(); ++k) {
      auto& group = aggregation_.group(batch.key(k));
      for (size_t v = batch.values_begin(k); v < batch.values_end(k); ++v) {
        FRESHET_RETURN_IF_ERROR(aggregation_.fold(group, batch.value(v), batch.weight(v)));
      }
    }
    return aggregation_.emit(&output_->batch);
  }

 private:
  const StreamSlot* input_;
  StreamSlot* output_;
  Aggregation aggregation_;
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
