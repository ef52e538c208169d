// Integrate (I): the running sum of a stream, built from plus and z^-1.
//
//          ┌──────┐
//   in ───►│ plus ├──┬──► out        out[t] = in[0] + ... + in[t]
//          └──▲───┘  │
//             └─z^-1─┘
//
//   step | 0 | 1   | 2
//   in   | a | b   | -a
//   out  | a | a+b | b
//
// Each step copies the whole integral (a merge of it and the delta): fine for
// tests and small streams. Stateful operators keep their integrals as traces
// (trace.h) instead, paying O(delta log n) per step.
#pragma once

#include "freshet/circuit/circuit.h"

namespace freshet {

Stream integrate(Stream input);

}  // namespace freshet
