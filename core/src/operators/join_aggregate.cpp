#include "freshet/operators/join_aggregate.h"

#include "aggregate_plan.h"
#include "aggregation.h"
#include "freshet/common/assert.h"
#include "freshet/zset/batch_codec.h"
#include "join_walk.h"

namespace freshet {
namespace {

using aggregate_detail::Aggregation;

class JoinAggregateOperator : public Operator {
 public:
  JoinAggregateOperator(const StreamSlot* left, const StreamSlot* right, StreamSlot* output, SchemaPtr group_schema,
                        SchemaPtr row_schema, JoinMapper mapper, std::vector<aggregate_detail::AggregatePlan> plans)
      : left_(left),
        right_(right),
        output_(output),
        walk_(left->key_schema, left->value_schema, right->value_schema, *group_schema, *row_schema, std::move(mapper)),
        aggregation_(group_schema, row_schema, output->key_schema, std::move(plans)) {}
  const char* name() const override { return "join_aggregate"; }

  Status evaluate() override {
    output_->batch = Batch::empty_batch();
    Status folded = Status::OK();
    auto fold = [this, &folded](RowRef group, RowRef row, Weight weight) {
      if (folded.ok()) folded = aggregation_.fold(aggregation_.group(group), row, weight);
    };
    walk_.walk(*left_->batch, right_trace_, /*delta_is_left=*/true, fold);
    left_trace_.insert(left_->batch);
    walk_.walk(*right_->batch, left_trace_, /*delta_is_left=*/false, fold);
    right_trace_.insert(right_->batch);
    FRESHET_RETURN_IF_ERROR(folded);
    return aggregation_.emit(&output_->batch);
  }

  size_t state_bytes() const override {
    return left_trace_.memory_bytes() + right_trace_.memory_bytes() + aggregation_.state_bytes();
  }
  // The join's traces, then the aggregate's state.
  void save_state(ByteWriter& out) const override {
    write_trace(out, left_trace_);
    write_trace(out, right_trace_);
    aggregation_.save_state(out);
  }
  void restore_state(ByteReader& in) override {
    read_trace(in, rows_of(left_->key_schema), rows_of(left_->value_schema), &left_trace_);
    read_trace(in, rows_of(right_->key_schema), rows_of(right_->value_schema), &right_trace_);
    if (in.ok()) aggregation_.restore_state(in);
  }

 private:
  const StreamSlot* left_;
  const StreamSlot* right_;
  StreamSlot* output_;
  JoinWalk walk_;
  Aggregation aggregation_;
  // The join's state: the integrals of both inputs.
  Trace left_trace_, right_trace_;
};

}  // namespace

Stream join_aggregate(Stream left, Stream right, SchemaPtr group_schema, SchemaPtr row_schema, JoinMapper mapper,
                      std::vector<AggregateSpec> aggregates) {
  FRESHET_ASSERT(validate_aggregates(*row_schema, aggregates).ok());
  std::vector<Column> columns = group_schema->columns();
  for (const AggregateSpec& spec : aggregates) columns.push_back({spec.name, spec.result_type});
  Circuit& circuit = *left.circuit();
  Stream output = circuit.add_stream(make_schema(std::move(columns)), empty_schema());
  auto plans = aggregate_detail::make_plans(*row_schema, aggregates, group_schema->size());
  circuit.add_operator(std::make_unique<JoinAggregateOperator>(
      &circuit.slot(left), &circuit.slot(right), &circuit.slot(output), std::move(group_schema), std::move(row_schema),
      std::move(mapper), std::move(plans)));
  return output;
}

}  // namespace freshet
