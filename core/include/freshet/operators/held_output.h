// HeldOutput: an operator whose state holds the integral of its own output
// (an aggregate: each group's last emitted row; a DISTINCT: the rows whose
// integrated input weight is positive). A materialized view of its stream
// reads the rows there instead of keeping a copy (materialized_view.h).
#pragma once

#include "freshet/circuit/circuit.h"
#include "freshet/zset/batch.h"

namespace freshet {

class HeldOutput {
 public:
  virtual ~HeldOutput() = default;
  //! The sum of every batch the operator has output: a consolidated Z-set
  //! of its output rows, as of the last step.
  virtual BatchPtr output_contents() const = 0;
  //! Whether it does (an aggregate that forgets closed groups does not).
  virtual bool holds_output() const { return true; }
};

//! The operator writing `stream`, when it holds its output (else null).
const HeldOutput* held_output(const Circuit& circuit, Stream stream);

}  // namespace freshet
