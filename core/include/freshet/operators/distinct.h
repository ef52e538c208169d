// Distinct: the set of (key, value) pairs whose integrated weight is positive,
// each with weight 1. Works alike on plain Z-sets (value empty) and on indexed
// streams: distinctness is over the whole (key, value) pair.
//
// ## Design
// Distinct is not linear, but its change depends only on the changed pairs:
//
//   Δout(p) = +1  when old(p) <= 0 < new(p)
//             -1  when new(p) <= 0 < old(p)
//              0  otherwise,      where new(p) = old(p) + Δin(p)
//
// old(p) is read from the arrangement of the input (arrange.h): its trace
// holds the integral of the steps before, and absorbs the delta at the end
// of the step. Distinct keeps no state of its own, so the input's rows are
// held once however many operators read that arrangement (another DISTINCT,
// an anti-join or join of the same stream on the whole row). A step costs
// O(|Δin| × log n): one point lookup per changed pair, and the trace's
// amortised insert.
//
//   step | 0    | 1  | 2  | 3
//   in   | a×2  | -a | -a | b, -c
//   out  | a    | 0  | -a | b
//
// (c never had a positive weight, so deleting it changes nothing.)
#pragma once

#include "freshet/circuit/circuit.h"

namespace freshet {

//! Each (key, value) of `input` with a positive integrated weight, with
//! weight 1. Reads `input`'s arrangement: `input` itself when an arrange
//! operator writes it (shared), else a new one.
Stream distinct(Stream input);

}  // namespace freshet
