// Differentiate (D): the change of a stream from one step to the next, the
// inverse of integrate. Built from plus, negate and z^-1.
//
//   in ──┬────────────────►┌──────┐
//        └─► z^-1 ─► neg ─►│ plus ├──► out     out[t] = in[t] - in[t-1]
//                          └──────┘
//
//   step | 0 | 1   | 2
//   in   | a | a+b | b
//   out  | a | b   | -a
#pragma once

#include "freshet/circuit/circuit.h"

namespace freshet {

Stream differentiate(Stream input);

}  // namespace freshet
