#include "freshet/operators/constant.h"

namespace freshet {
namespace {

class ConstantOperator : public Operator {
 public:
  ConstantOperator(StreamSlot* output, BatchPtr batch) : output_(output), batch_(std::move(batch)) {}
  const char* name() const override { return "constant"; }
  Status evaluate() override {
    output_->batch = emitted_ ? Batch::empty_batch() : batch_;
    emitted_ = true;
    return Status::OK();
  }
  void save_state(ByteWriter& out) const override { out.boolean(emitted_); }
  void restore_state(ByteReader& in) override { emitted_ = in.boolean(); }

 private:
  StreamSlot* output_;
  BatchPtr batch_;
  bool emitted_ = false;  // state: whether step 0 has run
};

}  // namespace

Stream constant(Circuit& circuit, SchemaPtr key_schema, SchemaPtr value_schema, BatchPtr batch) {
  Stream output = circuit.add_stream(std::move(key_schema), std::move(value_schema));
  circuit.add_operator(std::make_unique<ConstantOperator>(&circuit.slot(output), std::move(batch)), {}, output);
  return output;
}

}  // namespace freshet
