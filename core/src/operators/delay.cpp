#include "freshet/operators/delay.h"

#include "freshet/common/assert.h"
#include "freshet/zset/batch_codec.h"

namespace freshet {

Status DelayOperator::evaluate() {
  output_slot_->batch = held_;
  return Status::OK();
}

void DelayOperator::end_step() {
  FRESHET_ASSERT(input_ != nullptr);
  held_ = input_->batch;
}

void DelayOperator::save_state(ByteWriter& out) const { write_batch(out, *held_); }

void DelayOperator::restore_state(ByteReader& in) {
  BatchPtr held = read_batch(in, rows_of(output_slot_->key_schema), rows_of(output_slot_->value_schema));
  if (held) held_ = held->empty() ? Batch::empty_batch() : std::move(held);
}

// The back edge: the circuit sees the delay downstream of its input.
void DelayOperator::connect(Stream input) {
  input_ = &input.circuit()->slot(input);
  input.circuit()->add_input(this, input);
}

DelayOperator* add_delay(Circuit& circuit, SchemaPtr key_schema, SchemaPtr value_schema) {
  Stream output = circuit.add_stream(std::move(key_schema), std::move(value_schema));
  return circuit.add_operator(std::make_unique<DelayOperator>(output, &circuit.slot(output)), {}, output);
}

Stream delay(Stream input) {
  DelayOperator* op = add_delay(*input.circuit(), input.key_schema_ptr(), input.value_schema_ptr());
  op->connect(input);
  return op->stream();
}

}  // namespace freshet
