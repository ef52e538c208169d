// Delay (z^-1): outputs its previous step's input; the empty batch at step 0.
//
//   step   | 0 | 1 | 2
//   input  | a | b | c
//   output | 0 | a | b
//
// A delay may be created before its input exists (the feedback edge of
// integrate): create it, use its output, then connect() the input.
#pragma once

#include "freshet/circuit/circuit.h"

namespace freshet {

class DelayOperator : public Operator {
 public:
  DelayOperator(Stream output, StreamSlot* output_slot) : output_(output), output_slot_(output_slot) {}
  const char* name() const override { return "delay"; }
  Status evaluate() override;
  void end_step() override;
  size_t state_bytes() const override { return held_->memory_bytes(); }
  size_t state_rows() const override { return held_->size(); }
  void save_state(ByteWriter& out) const override;
  void restore_state(ByteReader& in) override;

  Stream stream() const { return output_; }
  void connect(Stream input);

 private:
  Stream output_;
  StreamSlot* output_slot_;
  const StreamSlot* input_ = nullptr;
  BatchPtr held_ = Batch::empty_batch();
};

//! A delay with the given schemas whose input is connected later.
DelayOperator* add_delay(Circuit& circuit, SchemaPtr key_schema, SchemaPtr value_schema);
//! z^-1(input).
Stream delay(Stream input);

}  // namespace freshet
