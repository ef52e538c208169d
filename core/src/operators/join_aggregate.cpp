#include "freshet/operators/join_aggregate.h"

#include "aggregate_plan.h"
#include "aggregation.h"
#include "freshet/common/assert.h"
#include "freshet/operators/held_output.h"
#include "join_core.h"

namespace freshet {
namespace {

using aggregate_detail::Aggregation;

class JoinAggregateOperator : public Operator {
 public:
  JoinAggregateOperator(const Circuit& circuit, Arrangement left, Arrangement right, StreamSlot* output,
                        SchemaPtr group_schema, SchemaPtr row_schema, JoinMapper mapper,
                        std::vector<aggregate_detail::AggregatePlan> plans, AggregateErrorHandler on_error)
      : output_(output),
        join_(circuit, left, right, *group_schema, *row_schema, std::move(mapper)),
        aggregation_(group_schema, row_schema, output->key_schema, std::move(plans)) {
    aggregation_.set_error_handler(std::move(on_error));
  }
  const char* name() const override { return "join_aggregate"; }

  Status evaluate() override {
    output_->batch = Batch::empty_batch();
    Status folded = Status::OK();
    join_.step([this, &folded](RowRef group, RowRef row, Weight weight) {
      if (folded.ok()) folded = aggregation_.fold(aggregation_.group(group), row, weight);
    });
    FRESHET_RETURN_IF_ERROR(folded);
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
  StreamSlot* output_;
  JoinCore join_;
  Aggregation aggregation_;
};

}  // namespace

Stream join_aggregate(Stream left, Stream right, SchemaPtr group_schema, SchemaPtr row_schema, JoinMapper mapper,
                      std::vector<AggregateSpec> aggregates, AggregateErrorHandler on_error) {
  FRESHET_ASSERT(validate_aggregates(*row_schema, aggregates).ok());
  std::vector<Column> columns = group_schema->columns();
  for (const AggregateSpec& spec : aggregates) columns.push_back({spec.name, spec.result_type});
  Circuit& circuit = *left.circuit();
  Arrangement left_arranged = arrange(left), right_arranged = arrange(right);
  Stream output = circuit.add_stream(make_schema(std::move(columns)), empty_schema());
  auto plans = aggregate_detail::make_plans(*row_schema, aggregates, group_schema->size());
  circuit.add_operator(std::make_unique<JoinAggregateOperator>(circuit, left_arranged, right_arranged,
                                                               &circuit.slot(output), std::move(group_schema),
                                                               std::move(row_schema), std::move(mapper),
                                                               std::move(plans), std::move(on_error)),
                       {left_arranged.stream, right_arranged.stream}, output);
  return output;
}

}  // namespace freshet
