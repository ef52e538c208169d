#include "freshet/operators/held_output.h"

namespace freshet {

const Operator* held_output(const Circuit& circuit, Stream stream) {
  const size_t producer = circuit.producer_of(stream);
  if (producer >= circuit.operator_count()) return nullptr;
  const Operator& op = circuit.operator_at(producer);
  return op.holds_output() ? &op : nullptr;
}

}  // namespace freshet
