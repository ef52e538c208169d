#include "freshet/operators/arrange.h"

#include <cstring>

#include "freshet/circuit/operator_description.h"
#include "freshet/zset/batch_codec.h"

namespace freshet {
namespace {

constexpr const char* kArrangeName = "arrange";

class ArrangeOperator : public Operator {
 public:
  ArrangeOperator(const StreamSlot* input, StreamSlot* output) : input_(input), output_(output) {}
  const char* name() const override { return kArrangeName; }

  Status evaluate() override {
    output_->batch = input_->batch;
    delta_ = input_->batch;
    return Status::OK();
  }
  // Readers see the trace before this step's delta while the step runs.
  void end_step() override {
    if (delta_) trace_.insert(std::move(delta_));
    delta_ = nullptr;
  }

  size_t state_bytes() const override { return trace_.memory_bytes(); }
  size_t state_rows() const override { return trace_.entry_count(); }
  std::string describe() const override { return "by " + describe_columns(*input_->key_schema); }
  void save_state(ByteWriter& out) const override { write_trace(out, trace_); }
  void restore_state(ByteReader& in) override {
    read_trace(in, rows_of(input_->key_schema), rows_of(input_->value_schema), &trace_);
  }
  const Trace& trace() const { return trace_; }

 private:
  const StreamSlot* input_;
  StreamSlot* output_;
  Trace trace_;     // the sum of every input batch of the steps before
  BatchPtr delta_;  // this step's, until end_step
};

}  // namespace

const Trace* arranged_trace(Stream stream) {
  const Circuit& circuit = *stream.circuit();
  const size_t producer = circuit.producer_of(stream);
  if (producer >= circuit.operator_count()) return nullptr;
  const Operator& op = circuit.operator_at(producer);
  // Names are unique per operator class; the library is built without
  // relying on RTTI being on.
  if (std::strcmp(op.name(), kArrangeName) != 0) return nullptr;
  return &static_cast<const ArrangeOperator&>(op).trace();
}

Arrangement arrange(Stream input) {
  if (const Trace* trace = arranged_trace(input)) return {input, trace};
  Circuit& circuit = *input.circuit();
  Stream output = circuit.add_stream(input.key_schema_ptr(), input.value_schema_ptr());
  ArrangeOperator* op = circuit.add_operator(
      std::make_unique<ArrangeOperator>(&circuit.slot(input), &circuit.slot(output)), {input}, output);
  return {output, &op->trace()};
}

}  // namespace freshet
