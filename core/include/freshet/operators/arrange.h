// Arrange: a stream integrated into a trace that other operators read, so a
// stream indexed by a key is held once however many operators need its
// integral (differential dataflow's `arrange`, DBSP's shared traces).
//
//   ΔA ──► arrange ──► ΔA (the same batch) ──┬──► join ◄── arrange ◄── ΔB
//             │ trace I(A)                    └──► join ◄── arrange ◄── ΔC
//             └──── read by both joins ─────────────┘
//
// ## Design
// The operator's output stream carries its input's batch unchanged (no
// copy); its readers declare that stream as their input, which orders them
// after it and puts the edge in the circuit's graph, and read the trace
// through `trace`. While a step runs, the trace holds the steps before
// (z⁻¹(I(A))); the step's delta is the stream's batch, and goes into the
// trace at the end of the step (end_step), as a delay's input does. The
// state lives here once: readers save none of it.
//
//   step | ΔA    | trace during the step | after
//   0    | k→a   | (empty)               | k→a
//   1    | -k→a  | k→a                   | (empty)
#pragma once

#include "freshet/circuit/circuit.h"
#include "freshet/zset/trace.h"

namespace freshet {

//! An arranged stream: its deltas and the trace of their sum over the
//! steps before the current one.
struct Arrangement {
  Stream stream;
  const Trace* trace = nullptr;
};

//! The arrangement of `input`: `input` itself when an arrange operator
//! writes it, else a new arrange operator reading it.
Arrangement arrange(Stream input);

//! The arrangement whose output `stream` is, if an arrange operator writes it.
const Trace* arranged_trace(Stream stream);

}  // namespace freshet
