// held_output: the operator writing a stream, when its state holds the
// integral of its output for good (an aggregate: each group's last emitted
// row; a DISTINCT: the rows whose integrated input weight is positive, in
// its input's arrangement; a table with a PRIMARY KEY: its rows by key;
// Operator::holds_output). A materialized view of that stream reads the rows
// there (Operator::output_integral) instead of keeping a copy
// (materialized_view.h).
#pragma once

#include "freshet/circuit/circuit.h"

namespace freshet {

//! The operator writing `stream`, when it holds its output (else null).
const Operator* held_output(const Circuit& circuit, Stream stream);

}  // namespace freshet
