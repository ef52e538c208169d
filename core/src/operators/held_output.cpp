#include "freshet/operators/held_output.h"

namespace freshet {

const HeldOutput* held_output(const Circuit& circuit, Stream stream) {
  const size_t producer = circuit.producer_of(stream);
  if (producer >= circuit.operator_count()) return nullptr;
  const auto* held = dynamic_cast<const HeldOutput*>(&circuit.operator_at(producer));
  return held && held->holds_output() ? held : nullptr;
}

}  // namespace freshet
