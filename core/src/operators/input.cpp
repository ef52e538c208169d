#include "freshet/operators/input.h"

namespace freshet {

Status InputOperator::evaluate() {
  slot_->batch = pending_.finish();
  return Status::OK();
}

InputOperator* add_input(Circuit& circuit, SchemaPtr key_schema, SchemaPtr value_schema) {
  Stream output = circuit.add_stream(std::move(key_schema), std::move(value_schema));
  return circuit.add_operator(std::make_unique<InputOperator>(output, &circuit.slot(output)));
}

}  // namespace freshet
