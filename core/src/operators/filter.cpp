#include "freshet/operators/filter.h"

#include "freshet/zset/batch_builder.h"
#include "freshet/zset/cursor.h"

namespace freshet {
namespace {

class FilterOperator : public Operator {
 public:
  FilterOperator(const StreamSlot* input, StreamSlot* output, RowPredicate predicate, ErrorLog* errors,
                 std::string description)
      : input_(input),
        output_(output),
        errors_(errors),
        predicate_(std::move(predicate)),
        description_(std::move(description)) {}
  const char* name() const override { return "filter"; }
  std::string describe() const override { return description_; }

  Status evaluate() override {
    const Batch& in = *input_->batch;
    SortedBatchBuilder kept;
    for (BatchCursor c(in); c.valid(); c.next()) {
      errors_->set_entry_weight(c.weight());
      if (predicate_(RowReader(*input_->key_schema, c.key()), RowReader(*input_->value_schema, c.value()))) {
        kept.push(c.key(), c.value(), c.weight());
      }
    }
    errors_->set_entry_weight(1);
    output_->batch = kept.finish();
    return Status::OK();
  }

 private:
  const StreamSlot* input_;
  StreamSlot* output_;
  ErrorLog* errors_;  // told each entry's weight (error_log.h)
  RowPredicate predicate_;
  std::string description_;  // the condition as SQL, for explain
};

}  // namespace

Stream filter(Stream input, RowPredicate predicate, std::string description) {
  Circuit& circuit = *input.circuit();
  Stream output = circuit.add_stream(input.key_schema_ptr(), input.value_schema_ptr());
  circuit.add_operator(
      std::make_unique<FilterOperator>(&circuit.slot(input), &circuit.slot(output), std::move(predicate),
                                       &circuit.error_log(), std::move(description)),
      {input}, output);
  return output;
}

}  // namespace freshet
