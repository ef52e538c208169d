// Input: where updates enter a circuit. Updates pushed between two steps
// become one consolidated batch, the input stream's value in the next step.
//
//   step   |  0  |  1  |   2
//   pushed | a,b |     | -a
//   output | a+b |  0  |  -a
#pragma once

#include "freshet/circuit/circuit.h"
#include "freshet/zset/batch_builder.h"

namespace freshet {

class InputOperator : public Operator {
 public:
  InputOperator(Stream output, StreamSlot* slot) : output_(output), slot_(slot) {}
  const char* name() const override { return "input"; }
  Status evaluate() override;

  Stream stream() const { return output_; }
  //! Buffers an update for the next step; the bytes are copied.
  void push(RowRef key, RowRef value, Weight weight) { pending_.add(key, value, weight); }
  //! A Z-set update (row as key, empty value).
  void push_row(RowRef row, Weight weight) { pending_.add_row(row, weight); }
  size_t pending() const { return pending_.pending(); }
  //! Input buffered for the next step survives a checkpoint.
  void save_state(ByteWriter& out) const override;
  void restore_state(ByteReader& in) override;

 private:
  Stream output_;
  StreamSlot* slot_;
  BatchBuilder pending_;
};

//! Adds an input with the given key and value schemas (a Z-set by default).
InputOperator* add_input(Circuit& circuit, SchemaPtr key_schema, SchemaPtr value_schema = empty_schema());

}  // namespace freshet
