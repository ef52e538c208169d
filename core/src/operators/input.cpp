#include "freshet/operators/input.h"

namespace freshet {

Status InputOperator::evaluate() {
  slot_->batch = pending_.finish();
  return Status::OK();
}

void InputOperator::save_state(ByteWriter& out) const {
  out.varint(pending_.pending());
  pending_.for_each_pending([&](RowRef key, RowRef value, Weight weight) {
    out.bytes(key.bytes());
    out.bytes(value.bytes());
    out.signed_varint(weight);
  });
}

void InputOperator::restore_state(ByteReader& in) {
  size_t count = in.count(3);
  for (size_t i = 0; i < count && in.ok(); ++i) {
    RowRef key(in.bytes());
    RowRef value(in.bytes());
    Weight weight = in.signed_varint();
    if (!in.ok()) break;
    if (!row_fits_schema(*slot_->key_schema, key) || !row_fits_schema(*slot_->value_schema, value)) {
      in.fail("buffered input " + std::to_string(i) + " does not fit the table's schema");
      break;
    }
    pending_.add(key, value, weight);
  }
}

InputOperator* add_input(Circuit& circuit, SchemaPtr key_schema, SchemaPtr value_schema) {
  Stream output = circuit.add_stream(std::move(key_schema), std::move(value_schema));
  return circuit.add_operator(std::make_unique<InputOperator>(output, &circuit.slot(output)), {}, output);
}

}  // namespace freshet
