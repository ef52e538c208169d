#include "freshet/operators/negate.h"

#include "freshet/zset/merge.h"

namespace freshet {
namespace {

class NegateOperator : public Operator {
 public:
  NegateOperator(const StreamSlot* input, StreamSlot* output) : input_(input), output_(output) {}
  const char* name() const override { return "negate"; }

  Status evaluate() override {
    output_->batch = negate_batch(*input_->batch);
    return Status::OK();
  }

 private:
  const StreamSlot* input_;
  StreamSlot* output_;
};

}  // namespace

Stream negate(Stream input) {
  Circuit& circuit = *input.circuit();
  Stream output = circuit.add_stream(input.key_schema_ptr(), input.value_schema_ptr());
  circuit.add_operator(std::make_unique<NegateOperator>(&circuit.slot(input), &circuit.slot(output)), {input}, output);
  return output;
}

}  // namespace freshet
