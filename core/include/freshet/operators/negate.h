// Negate: every weight flips sign. Linear.
//
//   step | 0  | 1
//   in   | x  | -y
//   out  | -x | y
#pragma once

#include "freshet/circuit/circuit.h"

namespace freshet {

Stream negate(Stream input);

}  // namespace freshet
